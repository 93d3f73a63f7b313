/* paisai table page: seat marks (已入座 per team, 全部入座 per table). Loaded after
   table_store.js (it uses window.paisaiTable: the config, P.call and P.uuid); it keeps its own
   entry in localStorage (the deals' key + ":seated"), so nothing of the deals changes.

   The phone keeps the marks wanted from the first tap until the server holds them: offline, a
   reload or a server error erase nothing; the marks go when the network is back (the
   "online" event, a retry every few seconds, and on load). What is sent is the whole wanted
   state ({"EW": true, "NS": true}) with an Idempotency-Key kept with it until the server
   answers, so a retry after a lost answer changes nothing twice. A refusal (the round closed,
   a revoked link) is said beside the buttons, and the buttons show what the server holds. */
(function () {
  "use strict";
  var P = window.paisaiTable, card = document.getElementById("seating");
  if (!P || !card) { return; }
  var cfg = P.cfg, store = P.store, KEY = cfg.storage + ":seated", RETRY_MS = 4000;
  var status = document.getElementById("seating-status");
  var buttons = card.querySelectorAll("button[data-seat-side]");
  var timer = null, busy = false;

  function load() {
    try {
      var data = store && JSON.parse(store.getItem(KEY) || "null");
      if (data && data.match === cfg.match) { return data; }
    } catch (e) { /* unreadable: start again */ }
    return {match: cfg.match, want: {EW: false, NS: false}, held: null, pending: null};
  }
  var state = load();
  function keep() {
    if (!store) { return; }
    try { store.setItem(KEY, JSON.stringify(state)); } catch (e) { /* full: memory only */ }
  }

  function say(kind) {
    status.textContent = kind ? (status.dataset[kind] || "") : "";
    status.className = "messages-line " + ({saved: "ok", kept: "warn", refused: "error"}[kind] || "");
  }

  function render() {
    buttons.forEach(function (button) {
      var on = !!state.want[button.dataset.seatSide];
      button.setAttribute("aria-pressed", on ? "true" : "false");
      button.querySelector(".seat-state").textContent = on ? button.dataset.on : button.dataset.off;
    });
    var all = document.getElementById("seat-all"), both = state.want.EW && state.want.NS;
    if (all) { all.disabled = both; }
    card.classList.toggle("all-seated", both);  // both seated: the card shrinks to its marks
  }

  function retryLater() {
    if (timer) { return; }
    timer = window.setTimeout(function () { timer = null; send(); }, RETRY_MS);
  }

  function send() {
    if (busy || !state.pending) { return; }
    busy = true;
    var p = state.pending;
    say("sending");
    P.call("POST", "seated/", p.body, p.key).then(function (r) {
      busy = false;
      if (r.status === 200) {
        state.held = {EW: !!r.data.EW, NS: !!r.data.NS};
        if (state.pending && state.pending.key === p.key) {
          state.pending = null;
          state.want = {EW: state.held.EW, NS: state.held.NS};
        }
        keep(); render();
        if (state.pending) { send(); } else { say("saved"); }
      } else if (r.status === 0 || r.status >= 500 || r.status === 401 || r.data.code === "login") {
        say("kept");  // kept on the phone: sent again with the same key
        retryLater();
      } else {  // refused: the server's words; the buttons go back to what it holds
        state.pending = null;
        if (state.held) { state.want = {EW: state.held.EW, NS: state.held.NS}; }
        keep(); render();
        status.textContent = r.data.error || status.dataset.refused;
        status.className = "messages-line error";
      }
    });
  }

  function want(changes) {
    Object.keys(changes).forEach(function (side) { state.want[side] = changes[side]; });
    // a new wanted state replaces one not yet answered: the last tap is what counts
    state.pending = {key: P.uuid(), body: {EW: state.want.EW, NS: state.want.NS}};
    keep(); render();
    if (!busy) { send(); }
  }

  buttons.forEach(function (button) {
    button.addEventListener("click", function () {
      var side = button.dataset.seatSide, change = {};
      change[side] = !state.want[side];
      want(change);
    });
  });
  var all = document.getElementById("seat-all");
  if (all) { all.addEventListener("click", function () { want({EW: true, NS: true}); }); }

  window.addEventListener("online", function () { send(); });

  render();
  if (state.pending) {
    say("kept");
    send();
  } else {  // what the server holds (another phone, the chief), unless a change is waiting
    P.call("GET", "seated/").then(function (r) {
      if (r.status !== 200 || state.pending) { return; }
      state.held = {EW: !!r.data.EW, NS: !!r.data.NS};
      state.want = {EW: state.held.EW, NS: state.held.NS};
      keep(); render();
    });
  }
})();
