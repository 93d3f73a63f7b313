/* Find my table: the round clock counts down from the round's end (server time, read from the
   clock API every 30 s: clock.js), and says so when time is up or the round is finalised. */
(function () {
  "use strict";
  var box = document.getElementById("find-clock");
  if (!box) return;
  var text = document.getElementById("find-clock-text");
  var note = document.getElementById("find-clock-note");
  var clock = new window.paisaiClock.Countdown(box.dataset.endsAt);
  var status = box.dataset.status;
  function tick() {
    if (status === "finalised") { text.textContent = "--:--"; note.textContent = box.dataset.msgFinalised; return; }
    var left = clock.secondsLeft();
    text.textContent = clock.text();
    note.textContent = left !== null && left <= 0 ? box.dataset.msgOver : "";
  }
  tick();
  clock.follow(box.dataset.clockUrl, 30, function (c) { status = c.status; tick(); });
  setInterval(tick, 1000);
})();
