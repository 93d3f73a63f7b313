/* Projector view (a hall's screen at 1920x1080, read from 10 m).

   The clock counts down from the round's end in server time (clock.js): the clock API is read
   at once and every 15 s (the page itself is cached, so its own clock may be old). It turns to a
   warning in the last minutes, to "time is up" at zero, and stops once the round is
   finalised, saying so. The tables go by one screen at a time: every few seconds the next
   screen is fetched from the (cached) pairings API, so every table of a 2,500-table round is
   shown in turn without anyone touching the screen. A hall's or a section's screen reads its
   next screens for the same hall and section: data-pairings-url carries ?section= and
   ?hall= (the page's own), and only the page number is added here. A new round reloads the
   page.

   How fresh the screen is: the clock API says up to when this site's data is complete
   (data_as_of: the venue's time; on a public mirror, what its replication has brought). When
   that is more than data-stale-seconds ago — a mirror cut off from the venue, or a screen
   that cannot reach its server — a warning says so, with the time the data is complete to. */
(function () {
  "use strict";
  var root = document.getElementById("projector");
  if (!root) return;
  var data = root.dataset;
  var clock = document.getElementById("clock");
  var box = document.getElementById("clock-box");
  var note = document.getElementById("clock-note");
  var tables = document.getElementById("projector-tables");
  var screenLine = document.getElementById("projector-screen");
  var countdown = new window.paisaiClock.Countdown(data.endsAt); // server time once read
  var status = data.status || "";
  var round = data.round || "";
  var warningSeconds = parseInt(data.warningMinutes, 10) * 60;
  var dwell = (parseInt(data.dwell, 10) || 8) * 1000;
  var sync = (parseInt(data.sync, 10) || 15) * 1000;
  var pages = parseInt(data.pages, 10) || 1;
  var page = 1;
  var timer = null;
  var staleBox = document.getElementById("projector-stale");
  var staleAfter = (parseInt(data.staleSeconds, 10) || 60) * 1000;
  var asOf = Date.now(); // this screen's clock: until the first answer, the page's load

  function show(state, text, message) {
    box.classList.toggle("warning", state === "warning");
    box.classList.toggle("over", state === "over");
    box.classList.toggle("finalised", state === "finalised");
    clock.textContent = text;
    if (message !== null) note.textContent = message;
  }
  function checkFresh() {
    if (!staleBox) return;
    var stale = isNaN(asOf) || Date.now() - asOf > staleAfter;
    if (stale) staleBox.textContent = data.msgStale.replace("%(time)s", isNaN(asOf) ? "--:--:--" : countdown.serverTime(asOf));
    staleBox.hidden = !stale;
    document.body.classList.toggle("stale-data", stale);
  }
  function tick() {
    checkFresh();
    if (status === "finalised") {
      show("finalised", "--:--", data.msgFinalised);
      if (timer !== null) { clearInterval(timer); timer = null; } // the countdown stops
      return;
    }
    var left = countdown.secondsLeft();
    if (left === null) return;
    left = Math.max(0, left);
    var state = left === 0 ? "over" : (left <= warningSeconds ? "warning" : "");
    show(state, countdown.text(), left === 0 ? data.msgOver : (state === "warning" ? data.msgWarning : ""));
  }
  function startTicking() {
    if (timer === null && status !== "finalised") timer = setInterval(tick, 1000);
  }
  setInterval(checkFresh, 5000); // also once the countdown has stopped
  function clockAnswer(c) { // the clock API's answer, the countdown already set from it
    if (String(c.round || "") !== round) { window.location.reload(); return; }
    if ("data_as_of" in c) asOf = c.data_as_of ? Date.parse(c.data_as_of) - countdown.skew : NaN;
    else asOf = Date.now();
    status = c.status || "";
    tick();
    startTicking();
  }

  function cell(text, className) {
    var span = document.createElement(className === "b" ? "b" : "span");
    if (className && className !== "b") span.className = className;
    span.textContent = text;
    return span;
  }
  // A line too long for its box is set smaller, down to half size, and then wraps: a team's
  // name is never cut off on the screen.
  function fit(el) {
    el.style.fontSize = "";
    el.classList.remove("wrap");
    if (el.scrollWidth <= el.clientWidth) return;
    var size = parseFloat(getComputedStyle(el).fontSize);
    var scaled = Math.max(0.5, (el.clientWidth / el.scrollWidth) * 0.98);
    el.style.fontSize = (size * scaled).toFixed(1) + "px";
    if (el.scrollWidth > el.clientWidth) el.classList.add("wrap");
  }
  function fitAll() {
    var title = document.querySelector(".projector h1");
    if (title) fit(title);
    if (tables) Array.prototype.forEach.call(tables.children, fit);
  }
  function render(answer) {
    var rows = document.createDocumentFragment();
    answer.tables.forEach(function (t) {
      var div = document.createElement("div");
      div.appendChild(cell(t.table === null ? "—" : String(t.table), "b"));
      if (t.label) { div.appendChild(cell(t.label, "badge")); div.appendChild(document.createTextNode(" ")); }
      div.appendChild(document.createTextNode(t.home + " "));
      div.appendChild(cell("–", "muted"));
      div.appendChild(document.createTextNode(" "));
      if (t.away === null) div.appendChild(cell(data.msgBye, "muted"));
      else div.appendChild(document.createTextNode(t.away));
      rows.appendChild(div);
    });
    tables.replaceChildren(rows);
    fitAll();
    pages = answer.pages;
    if (screenLine) {
      var size = answer.page_size, first = (answer.page - 1) * size + 1;
      screenLine.textContent = data.msgScreen
        .replace("%(first)s", first).replace("%(last)s", first + answer.tables.length - 1)
        .replace("%(count)s", answer.count).replace("%(page)s", answer.page)
        .replace("%(pages)s", answer.pages);
    }
  }
  function nextScreen() {
    if (!data.pairingsUrl || pages < 2) return;
    var want = page % pages + 1;
    fetch(data.pairingsUrl + "&page=" + want, {headers: {"Accept": "application/json"}})
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (answer) {
        if (!answer) return;
        if (String(answer.round || "") !== round) { window.location.reload(); return; }
        page = answer.page;
        render(answer);
      })
      .catch(function () {}); // keep this screen; try the next one later
  }

  fitAll();
  window.addEventListener("resize", fitAll);
  tick();
  startTicking();
  countdown.follow(data.clockUrl, sync / 1000, clockAnswer);
  setInterval(nextScreen, dwell);
})();
