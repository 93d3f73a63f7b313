/* Projector view: the round clock counts down from the round's end (server time), turns to a
   warning in the last minutes and to "time is up" at zero; the page reloads every minute so
   that a new round, new pairings or a moved clock show without anyone touching it. */
(function () {
  "use strict";
  var root = document.getElementById("projector");
  if (!root) return;
  var clock = document.getElementById("clock");
  var box = document.getElementById("clock-box");
  var note = document.getElementById("clock-note");
  var endsAt = root.dataset.endsAt ? Date.parse(root.dataset.endsAt) : NaN;
  var skew = Date.parse(root.dataset.now) - Date.now(); // server clock minus this screen's
  var warningSeconds = parseInt(root.dataset.warningMinutes, 10) * 60;
  var refresh = parseInt(root.dataset.refresh, 10) || 60;

  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function format(seconds) {
    var h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
    return (h ? h + ":" + pad(m) : pad(m)) + ":" + pad(s);
  }
  function tick() {
    if (isNaN(endsAt)) { return; }
    var left = Math.max(0, Math.round((endsAt - (Date.now() + skew)) / 1000));
    clock.textContent = format(left);
    box.classList.toggle("warning", left > 0 && left <= warningSeconds);
    box.classList.toggle("over", left === 0);
    note.textContent = left === 0 ? root.dataset.msgOver : (left <= warningSeconds ? root.dataset.msgWarning : "");
  }
  tick();
  setInterval(tick, 1000);
  setTimeout(function () { window.location.reload(); }, refresh * 1000);
})();
