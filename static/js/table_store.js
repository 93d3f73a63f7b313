/* paisai table page, 1 of 5: what the phone keeps, and the line to the server.

   The table page (templates/tournaments/table/entry.html, and the chief's correction on the
   match page) loads, in this order: table_store.js (this file: the kept state in
   localStorage, the API call, the connection line), table_deals.js (entering deals, the
   engine's check), table_match_end.js (the end of the match under the match format, the time
   call, only the final levels), table_history.js (versions, resume, changed meanwhile, the
   captains' signatures) and table.js (drawing the page, submitting, start-up). They share
   one object, window.paisaiTable (P below); each file adds its functions to it.

   No rule of the games lives here: every deal is sent to the server's rules engine ("preview":
   scores, stores nothing) and the page shows its answer or its reason. The few facts the page
   needs to lay out the taps (how many seats a finish names, who partners whom) come from the
   engine through the page's config.

   Deals are kept on the phone (localStorage, one entry per event, round and table) from the
   first tap until a version stored by the server holds them: a dropped network, a reload, a
   closed tab, an expired login, a revoked key or a server error erase nothing. A submission
   carries an Idempotency-Key made here and kept with it until the server answers, so a retry
   after a lost answer gets the version first stored, never a second one. */
(function () {
  "use strict";
  var P = window.paisaiTable = {};
  var cfg = P.cfg = JSON.parse(document.getElementById("table-config").textContent);
  P.T = JSON.parse(document.getElementById("table-strings").textContent);
  var $ = P.$ = function (id) { return document.getElementById(id); };
  P.on = function (id, name, fn) { var el = $(id); if (el) { el.addEventListener(name, fn); } };
  // no answer within TIMEOUT_MS: the request is given up (AbortController) and, for a
  // submission, sent again with the same Idempotency-Key after a growing pause (RETRY_MS,
  // doubled each time up to RETRY_MAX_MS): never "saving…" for ever, never a second version.
  P.TIMEOUT_MS = 12000;
  P.RETRY_MS = 2000;
  P.RETRY_MAX_MS = 30000;
  // "correct": the chief referee's correction on the match page, starting from the counting
  // version (cfg.reference) and showing what changes against it.
  P.correcting = cfg.mode === "correct";
  P.reference = cfg.reference || null;
  // what is in flight, the connection, the preview queue; the guandan taps of the deal in hand
  P.busy = {submit: false, preview: false};
  // connection: ok | offline | login | revoked | server; conflict: the newer version's number
  // while "changed meanwhile" waits for the referee (nothing of this phone is saved then)
  P.net = {connection: "unknown", retryTimer: null, attempts: 0, retryIn: 0, conflict: null};
  P.taps = [];
  // best of three (三局二胜, the match format's "games": 3): each deal kept carries its game
  // (0, 1, 2); the record sent holds "games": [{deals}, ...]. Which game a deal goes into, and
  // when a game and the match are decided, is always the engine's answer (table_deals.js).
  P.bestOfThree = !!cfg.best_of_three;  // the engine's limits (format_fields.limits)
  P.lastGame = (cfg.games || 1) - 1;  // the index of the last game a match may play

  // --- what the phone keeps ---------------------------------------------------------------
  // deals: [{deal: {...}, game: 0|1|2, saved: n|null, refused: "reason"|null}]
  // base: the latest version number seen; mirror: {number, count} the stored version the
  // first `count` deals are copies of; pending: {key, path, body} a submission not yet answered;
  // outcome: the engine's last answer (shown while offline).
  // P.state is one object for the page's life (the other files hold it): replaced in place.
  var store = null;
  try { store = window.localStorage; } catch (e) { store = null; }
  P.store = store;

  function fresh() {
    return {match: cfg.match, deals: [], base: 0, mirror: null, pending: null, outcome: null, note: ""};
  }
  function load() {
    if (!store) { return null; }
    try {
      var data = JSON.parse(store.getItem(cfg.storage) || "null");
      return data && data.match === cfg.match ? data : null;
    } catch (e) { return null; }
  }
  function keep() {
    if (!store) { return; }
    try { store.setItem(cfg.storage, JSON.stringify(P.state)); } catch (e) { /* full: keep in memory */ }
  }
  function replaceState(next) {
    Object.keys(P.state).forEach(function (k) { delete P.state[k]; });
    Object.keys(next).forEach(function (k) { P.state[k] = next[k]; });
  }
  P.fresh = fresh; P.load = load; P.keep = keep; P.replaceState = replaceState;

  var state = P.state = load() || fresh();
  if (P.correcting && !state.deals.length && !state.pending && P.reference) {
    var reference = P.reference;
    state.deals = reference.deals.map(function (deal, i) {
      return {deal: deal, game: (reference.games || [])[i] || 0, saved: reference.number, refused: null};
    });
    state.mirror = {number: reference.number, count: reference.deals.length};
    state.outcome = reference.outcome || null;
  }
  if (P.correcting) { state.base = cfg.latest_number; }

  // the deals of a record (a version's or a submission's), in order, each with its game
  P.flat = function (record) {
    if (!record) { return []; }
    if (record.games) {
      var all = [];
      record.games.forEach(function (game, g) {
        (game.deals || []).forEach(function (deal) { all.push({deal: deal, game: g}); });
      });
      return all;
    }
    return (record.deals || []).map(function (deal) { return {deal: deal, game: 0}; });
  };
  P.gameOf = function (d) { return d.game || 0; };
  // a record of deals (a version's) as the page holds them, each saved in version `number`
  P.keptDeals = function (record, number) {
    return P.flat(record).map(function (d) {
      return {deal: d.deal, game: d.game, saved: number, refused: null};
    });
  };

  P.uuid = function () {
    if (window.crypto && window.crypto.randomUUID) { return window.crypto.randomUUID(); }
    var b = new Uint8Array(16);
    window.crypto.getRandomValues(b);
    b[6] = (b[6] & 15) | 64; b[8] = (b[8] & 63) | 128;
    var h = Array.prototype.map.call(b, function (x) { return (x + 256).toString(16).slice(1); }).join("");
    return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
  };

  function csrf() {
    var m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return m ? decodeURIComponent(m[1]) : "";
  }

  // status 0: no answer (network down, answer lost, or none within P.TIMEOUT_MS: then
  // ``timeout`` is true). Never throws.
  P.call = function (method, path, body, key) {
    // the engine's check (preview) with no network: the phone's own engine answers
    // (table_engine.js: {status, data, local: true}); nothing else is answered here
    var local = path === "preview/" && P.engine && P.engine.available();
    if (local && navigator.onLine === false) { return P.engine.preview(body.record); }
    var headers = {"Accept": "application/json", "Content-Type": "application/json"};
    if (cfg.key) { headers["X-Table-Key"] = cfg.key; } else { headers["X-CSRFToken"] = csrf(); }
    if (key) { headers["Idempotency-Key"] = key; }
    // the version history names the path: the table page (or the match page's correction)
    headers["X-Paisai-Page"] = P.correcting ? "match" : "table";
    var abort = window.AbortController ? new window.AbortController() : null, late = false;
    var timer = window.setTimeout(function () { late = true; if (abort) { abort.abort(); } }, P.TIMEOUT_MS);
    return fetch(cfg.api + path, {
      method: method, headers: headers, credentials: "same-origin", cache: "no-store",
      body: body ? JSON.stringify(body) : undefined, signal: abort ? abort.signal : undefined
    }).then(function (response) {
      return response.json().catch(function () { return {}; })
        .then(function (data) { return {status: response.status, data: data || {}}; });
    }, function () { return {status: 0, data: {}, timeout: late}; })
      .then(function (r) {
        window.clearTimeout(timer);
        return r.status === 0 && local ? P.engine.preview(body.record) : r;
      });
  };

  // --- what the page says -----------------------------------------------------------------
  P.say = function (text, kind) { P.sayAt("table-message", text, kind); };
  // a message where the person acted: beside the button they tapped (submit-status,
  // final-status, absent-status), else at the top of the entry
  P.sayAt = function (id, text, kind) {
    var box = $(id) || $("table-message");
    box.textContent = text || "";
    box.className = "messages-line " + (kind || "");
    box.hidden = !text;
  };
  // a refusal of the match as a whole (code match_not_over, record_refused): on the
  // scoreboard, never on a deal
  P.matchRefusal = function (text) {
    var box = $("match-refusal");
    if (!box) { return; }
    box.textContent = text || "";
    box.hidden = !text;
  };

  P.unsent = function () {
    return state.deals.filter(function (d) { return d.saved === null; }).length;
  };
  P.dirtyMirror = function () {
    var m = state.mirror;
    return !m || m.count !== state.deals.length ||
      state.deals.some(function (d) { return d.saved === null; });
  };

  P.setConnection = function (kind) {
    P.net.connection = kind;
    P.showConnection();
  };
  P.showConnection = function () {
    var T = P.T, connection = P.net.connection;
    var line = $("connection"), n = state.deals.length, text = "", cls = "";
    var login = $("login-again");
    if (login) { login.hidden = connection !== "login"; }
    var notice = $("login-notice");  // the same at the top of the screen, where the referee looks
    if (notice) {
      notice.hidden = connection !== "login";
      $("login-notice-text").textContent = T.conn_login.replace("%s", n);
    }
    if (connection === "offline") { text = T.conn_offline; cls = "error"; }
    else if (connection === "login") { text = T.conn_login; cls = "error"; }
    else if (connection === "revoked") { text = T.conn_revoked; cls = "error"; }
    else if (connection === "server") { text = T.conn_server; cls = "error"; }
    else if (connection === "ok" && P.net.conflict) {  // never "everything is saved" then
      text = T.conn_conflict.replace("%n", P.net.conflict); cls = "warn";
    } else if (connection === "ok") {
      var dirty = P.dirtyMirror() && n;
      text = state.pending ? T.conn_sending : (dirty ? T.conn_unsaved : T.conn_ok);
      cls = dirty ? "warn" : "ok";
    } else { text = T.conn_checking; }
    line.textContent = text.replace("%s", n).replace("%u", P.unsent());
    line.className = "connection " + cls;
  };

  // an answer that is not the engine's: no network, login expired, key revoked, server down
  // or no answer in time. The connection line says so; what is waiting is tried again.
  P.answerTrouble = function (r) {
    var code = r.data.code || "";
    if (r.status === 0) { P.setConnection(navigator.onLine === false ? "offline" : "server"); }
    else if (r.status === 401 || code === "login") {  // no login, an expired one, a revoked key
      P.setConnection(cfg.key ? "revoked" : "login");
    } else if (r.status >= 500) { P.setConnection("server"); }
    else { P.setConnection("ok"); P.say(r.data.error || P.T.network, "error"); return; }
    scheduleRetry();
  };

  // the words for an answer that is not the engine's, with what happens next
  P.troubleText = function (r) {
    var T = P.T, connection = P.net.connection, wait = Math.round(P.net.retryIn / 1000);
    if (connection === "login") { return T.conn_login.replace("%s", state.deals.length); }
    if (connection === "revoked") { return T.conn_revoked.replace("%s", state.deals.length); }
    if (connection === "offline") { return T.no_network; }
    if (r.status >= 500) { return T.server_failed.replace("%s", r.status).replace("%t", wait); }
    return T.no_answer.replace("%s", Math.round(P.TIMEOUT_MS / 1000)).replace("%t", wait);
  };

  function scheduleRetry() {
    var net = P.net;
    if (net.retryTimer || net.connection === "login" || net.connection === "revoked") { return; }
    net.retryIn = Math.min(P.RETRY_MAX_MS, P.RETRY_MS * Math.pow(2, net.attempts));
    net.attempts += 1;
    net.retryTimer = window.setTimeout(function () { net.retryTimer = null; P.resume(); }, net.retryIn);
  }
})();
