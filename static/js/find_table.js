/* Find my table: the round clock counts down from the round's end (server time, read from the
   clock API every 30 s), and says so when time is up or the round is finalised. */
(function () {
  "use strict";
  var box = document.getElementById("find-clock");
  if (!box) return;
  var text = document.getElementById("find-clock-text");
  var note = document.getElementById("find-clock-note");
  var endsAt = box.dataset.endsAt ? Date.parse(box.dataset.endsAt) : NaN;
  var status = box.dataset.status;
  var skew = 0;
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function format(s) {
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
    return (h ? h + ":" + pad(m) : pad(m)) + ":" + pad(s % 60);
  }
  function tick() {
    if (status === "finalised") { text.textContent = "--:--"; note.textContent = box.dataset.msgFinalised; return; }
    if (isNaN(endsAt)) { text.textContent = "--:--"; note.textContent = ""; return; }
    var left = Math.max(0, Math.round((endsAt - (Date.now() + skew)) / 1000));
    text.textContent = format(left);
    note.textContent = left === 0 ? box.dataset.msgOver : "";
  }
  function sync() {
    fetch(box.dataset.clockUrl, {headers: {"Accept": "application/json"}})
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (c) {
        if (!c) return;
        skew = Date.parse(c.now) - Date.now();
        endsAt = c.ends_at ? Date.parse(c.ends_at) : NaN;
        status = c.status;
        tick();
      })
      .catch(function () {});
  }
  tick();
  sync();
  setInterval(tick, 1000);
  setInterval(sync, 30000);
})();
