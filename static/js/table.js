/* paisai table page: enter a match deal by deal on a phone, and never lose a deal.

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
  var cfg = JSON.parse(document.getElementById("table-config").textContent);
  var T = JSON.parse(document.getElementById("table-strings").textContent);
  var $ = function (id) { return document.getElementById(id); };
  var on = function (id, name, fn) { var el = $(id); if (el) { el.addEventListener(name, fn); } };
  var RETRY_MS = 4000;
  // "correct": the chief referee's correction on the match page, starting from the counting
  // version (cfg.reference) and showing what changes against it.
  var correcting = cfg.mode === "correct";
  var reference = cfg.reference || null;

  // --- what the phone keeps ---------------------------------------------------------------
  // deals: [{deal: {...}, saved: n|null, refused: "reason"|null}]
  // base: the latest version number seen; mirror: {number, count} the stored version the
  // first `count` deals are copies of; pending: {key, path, body} a submission not yet answered;
  // outcome: the engine's last answer (shown while offline).
  var store = null;
  try { store = window.localStorage; } catch (e) { store = null; }
  var state = load() || {match: cfg.match, deals: [], base: 0, mirror: null, pending: null,
                         outcome: null, note: ""};
  if (correcting && !state.deals.length && !state.pending && reference) {
    state.deals = reference.deals.map(function (deal) {
      return {deal: deal, saved: reference.number, refused: null};
    });
    state.mirror = {number: reference.number, count: reference.deals.length};
    state.outcome = reference.outcome || null;
  }
  if (correcting) { state.base = cfg.latest_number; }
  var taps = [];
  var busy = {submit: false, preview: false};
  var connection = "unknown";  // ok | offline | login | revoked | server
  var previewWanted = false, previewSent = "";
  var retryTimer = null;
  var conflictLatest = null;

  function load() {
    if (!store) { return null; }
    try {
      var data = JSON.parse(store.getItem(cfg.storage) || "null");
      return data && data.match === cfg.match ? data : null;
    } catch (e) { return null; }
  }
  function keep() {
    if (!store) { return; }
    try { store.setItem(cfg.storage, JSON.stringify(state)); } catch (e) { /* full: keep in memory */ }
  }

  function uuid() {
    if (window.crypto && window.crypto.randomUUID) { return window.crypto.randomUUID(); }
    var b = new Uint8Array(16);
    window.crypto.getRandomValues(b);
    b[6] = (b[6] & 15) | 64; b[8] = (b[8] & 63) | 128;
    var h = Array.prototype.map.call(b, function (x) { return (x + 256).toString(16).slice(1); }).join("");
    return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
  }

  function csrf() {
    var m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return m ? decodeURIComponent(m[1]) : "";
  }

  // status 0: no answer (network down, answer lost). Never throws.
  function call(method, path, body, key) {
    var headers = {"Accept": "application/json", "Content-Type": "application/json"};
    if (cfg.key) { headers["X-Table-Key"] = cfg.key; } else { headers["X-CSRFToken"] = csrf(); }
    if (key) { headers["Idempotency-Key"] = key; }
    return fetch(cfg.api + path, {
      method: method, headers: headers, credentials: "same-origin", cache: "no-store",
      body: body ? JSON.stringify(body) : undefined
    }).then(function (response) {
      return response.json().catch(function () { return {}; })
        .then(function (data) { return {status: response.status, data: data || {}}; });
    }, function () { return {status: 0, data: {}}; });
  }

  // --- what the page says -----------------------------------------------------------------
  function say(text, kind) {
    var box = $("table-message");
    box.textContent = text || "";
    box.className = "messages-line " + (kind || "");
    box.hidden = !text;
  }

  function unsent() {
    return state.deals.filter(function (d) { return d.saved === null; }).length;
  }
  function dirtyMirror() {
    var m = state.mirror;
    return !m || m.count !== state.deals.length ||
      state.deals.some(function (d) { return d.saved === null; });
  }

  function setConnection(kind) {
    connection = kind;
    showConnection();
  }
  function showConnection() {
    var line = $("connection"), n = state.deals.length, text = "", cls = "";
    var login = $("login-again");
    if (login) { login.hidden = connection !== "login"; }
    if (connection === "offline") { text = T.conn_offline; cls = "error"; }
    else if (connection === "login") { text = T.conn_login; cls = "error"; }
    else if (connection === "revoked") { text = T.conn_revoked; cls = "error"; }
    else if (connection === "server") { text = T.conn_server; cls = "error"; }
    else if (connection === "ok") {
      text = state.pending ? T.conn_sending : (dirtyMirror() && n ? T.conn_unsaved : T.conn_ok);
      cls = dirtyMirror() && n ? "warn" : "ok";
    } else { text = T.conn_checking; }
    line.textContent = text.replace("%s", n).replace("%u", unsent());
    line.className = "connection " + cls;
  }

  function dealState(d, i) {
    if (d.refused) { return [T.deal_refused + " " + d.refused, "bad"]; }
    if (correcting && reference) {  // what changes against the counting version
      if (i >= reference.deals.length) { return [T.diff_new, "warn"]; }
      return sameDeals(d.deal, reference.deals[i]) ? [T.diff_same, "ok"] : [T.diff_changed, "warn"];
    }
    var sending = busy.submit && state.pending && state.pending.body.record &&
      state.pending.body.record.deals;
    if (sending && i < sending.length && d.saved === null) { return [T.deal_sending, "warn"]; }
    if (d.saved !== null) { return [T.deal_saved.replace("%s", d.saved), "ok"]; }
    return [T.deal_local, "warn"];
  }

  // seats and sides in the page's words (the API's codes E/S/W/N and EW/NS stay in the data)
  function seatName(code) { return (cfg.seat_names || {})[code] || code; }
  function sideName(code) { return (cfg.side_names || {})[code] || code; }

  function describe(deal, entry) {
    if (deal.finish) { return deal.finish.map(seatName).join(" "); }
    if (deal.tricks) { return sideName("EW") + " " + deal.tricks.EW + " : " + sideName("NS") + " " + deal.tricks.NS; }
    // tractor: dealer, defenders' trick points, bottom × multiplier, throw penalties, total, result
    var dealer = deal.dealer || (entry && entry.dealer) || "";
    var parts = [(dealer ? T.dealer + " " + sideName(dealer) : ""), T.defenders + " " + deal.defender_points];
    if (deal.bottom_points !== undefined) {
      parts.push(T.bottom + " " + deal.bottom_points + " × " + deal.bottom_multiplier);
    }
    (deal.failed_throws || []).forEach(function (t) {
      parts.push(T.throw_penalty + " " + sideName(t.side) + " " + t.cards);
    });
    if (entry && entry.total_points !== undefined) {
      parts.push(T.total + " " + entry.total_points);
      if (entry.result) { parts.push(T["result_" + entry.result] || entry.result); }
    }
    return parts.filter(Boolean).join(" · ");
  }

  function levelsText(entry) {
    if (!entry) { return ""; }
    var lv = entry.levels_after || entry.levels;
    var both = lv || entry.tricks;
    if (both) { return sideName("EW") + " " + both.EW + " · " + sideName("NS") + " " + both.NS; }
    return "";
  }

  function render() {
    var answer = state.outcome, deals = state.deals;
    var levels = answer && deals.length ? answer.levels : null;
    var won = answer && deals.length ? answer.deals_won : null;
    $("levels-ew").textContent = levels ? levels.EW : (won ? won.EW : "–");
    $("levels-ns").textContent = levels ? levels.NS : (won ? won.NS : "–");
    var result = $("match-result");
    if (!answer || !deals.length) {
      result.textContent = deals.length ? T.not_checked : T.no_deals;
    } else {
      var winner = answer.winner ? (answer.winner === "EW" ? cfg.home : cfg.away) : T.draw;
      var points = answer.match_points ? answer.match_points.EW + " : " + answer.match_points.NS : "";
      var stale = (answer.trace || []).length !== deals.length ? " · " + T.not_checked : "";
      // a match that is over (a side passed A, the deals or the time are up) is won, not led
      var over = answer.over || answer.passed_a;
      result.textContent = (answer.winner ? (over ? T.wins : T.leads).replace("%s", winner) : winner) +
        (points ? " · " + T.points + " " + points : "") + (answer.passed_a ? " · " + T.passed_a : "") + stale;
    }
    var list = $("deal-list");
    list.innerHTML = "";
    var trace = (answer && answer.trace) || [];
    // how many deals the shown answer covers (tests and the "not checked" mark read it)
    list.dataset.checked = String(answer && deals.length ? trace.length : 0);
    deals.forEach(function (d, i) {
      var li = document.createElement("li");
      var entry = trace.length === deals.length || i < trace.length ? trace[i] : null;
      var text = document.createElement("span");
      text.className = "deal-text";
      text.textContent = "#" + (i + 1) + " " + describe(d.deal, entry) +
        (entry && !d.refused ? " → " + levelsText(entry) : "");
      var st = dealState(d, i);
      var badge = document.createElement("span");
      badge.className = "badge deal-state " + st[1];
      badge.textContent = st[0];
      li.appendChild(text); li.appendChild(document.createTextNode(" ")); li.appendChild(badge);
      li.dataset.state = d.refused ? "refused" : (d.saved !== null ? "saved" : "local");
      if (d.refused) {
        var remove = document.createElement("button");
        remove.type = "button"; remove.className = "small secondary remove-deal";
        remove.textContent = T.remove;
        remove.addEventListener("click", function () { removeDeal(i); });
        li.appendChild(document.createTextNode(" ")); li.appendChild(remove);
      }
      list.appendChild(li);
    });
    var submit = $("submit-result");
    var refused = deals.some(function (d) { return d.refused; });
    var changed = correcting ? !sameDeals(record().deals, reference ? reference.deals : []) : dirtyMirror();
    submit.disabled = busy.submit || (!state.pending && (!deals.length || refused || !changed));
    submit.textContent = busy.submit ? T.saving : (state.pending ? T.retry_submit : (correcting ? T.save_correction : T.submit));
    if (correcting && $("diff-summary")) { $("diff-summary").textContent = diffSummary(); }
    $("undo-deal").disabled = busy.submit || (!taps.length && !deals.length);
    document.querySelectorAll("button[data-absent], #submit-final").forEach(function (b) {
      b.disabled = busy.submit;  // a request in flight disables every button that would send
    });
    showConnection();
  }

  function diffSummary() {
    var ref = reference ? reference.deals : [], mine = record().deals, changed = 0, added = 0;
    mine.forEach(function (deal, i) {
      if (i >= ref.length) { added += 1; } else if (!sameDeals(deal, ref[i])) { changed += 1; }
    });
    var removed = Math.max(0, ref.length - mine.length);
    var n = reference ? reference.number : 0;
    if (!changed && !added && !removed) { return T.diff_nothing.replace("%s", n); }
    return T.diff_summary.replace("%s", n).replace("%c", changed).replace("%a", added).replace("%r", removed);
  }

  // --- the engine's check (preview): queued, newest only ------------------------------------
  function record() {
    return {game: cfg.game, deals: state.deals.map(function (d) { return d.deal; })};
  }

  function wantPreview() {
    previewWanted = true;
    runPreview();
  }

  function runPreview() {
    if (busy.preview || !previewWanted) { return; }
    if (!state.deals.length) { previewWanted = false; state.outcome = null; keep(); render(); return; }
    previewWanted = false;
    busy.preview = true;
    var sent = JSON.stringify(record());
    previewSent = sent;
    call("POST", "preview/", {record: JSON.parse(sent)}).then(function (r) {
      busy.preview = false;
      var current = JSON.stringify(record()) === sent;
      if (r.status === 200) {
        setConnection("ok");
        if (current) {
          state.outcome = r.data;
          state.deals.forEach(function (d) { d.refused = null; });
          say("");
        }
      } else if (r.status === 400) {
        setConnection("ok");
        if (current) { markRefused(r.data); }
      } else {
        answerTrouble(r);
        previewWanted = true;  // check again once the server answers
      }
      keep(); render();
      if (previewWanted && connection === "ok") { runPreview(); }
    });
  }

  function markRefused(data) {
    var m = /deals\[(\d+)\]/.exec(data.field || "");
    var at = m ? parseInt(m[1], 10) : state.deals.length - 1;
    if (at >= state.deals.length) { at = state.deals.length - 1; }
    state.deals.forEach(function (d, i) { d.refused = i === at ? (data.error || T.refused) : null; });
    say(T.refused + " " + (data.error || ""), "error");
  }

  // an answer that is not the engine's: no network, login expired, key revoked, server down
  function answerTrouble(r) {
    if (r.status === 0) { setConnection(navigator.onLine === false ? "offline" : "server"); }
    else if (r.status === 401 || (r.status === 403 && !cfg.key && r.data.field === "login")) {
      setConnection(cfg.key ? "revoked" : "login");
    } else if (r.status >= 500) { setConnection("server"); }
    else { setConnection("ok"); say(r.data.error || T.network, "error"); return; }
    scheduleRetry();
  }

  function scheduleRetry() {
    if (retryTimer || connection === "login" || connection === "revoked") { return; }
    retryTimer = window.setTimeout(function () { retryTimer = null; resume(); }, RETRY_MS);
  }

  // --- entering deals ---------------------------------------------------------------------
  function addDeal(deal) {
    state.deals.push({deal: deal, saved: null, refused: null});
    keep(); render();
    wantPreview();
  }

  function removeDeal(i) {
    state.deals.splice(i, 1);
    keep(); render();
    wantPreview();
  }

  // guandan: tap the seats in finishing order; each tapped seat shows its place
  function showTaps() {
    var order = $("finish-order");
    if (order) { order.textContent = taps.length ? taps.map(seatName).join(" ") : T.tap_first; }
    document.querySelectorAll("button.seat").forEach(function (b) {
      var place = taps.indexOf(b.dataset.seat);
      b.disabled = place >= 0;
      b.querySelector(".place").textContent = place >= 0 ? String(place + 1) : "";
      b.classList.toggle("tapped", place >= 0);
    });
    var send = $("send-deal");
    if (send) {  // 双上 only when the first two out are partners (the engine's partner table)
      send.disabled = !(taps.length === 2 && cfg.partners[taps[0]] === taps[1]);
    }
    $("undo-deal").disabled = busy.submit || (!taps.length && !state.deals.length);
  }

  function sendTaps() {
    var finish = taps.slice();
    taps = [];
    showTaps();
    addDeal({finish: finish});
  }

  document.querySelectorAll("button.seat").forEach(function (button) {
    button.addEventListener("click", function () {
      if (taps.indexOf(button.dataset.seat) >= 0) { return; }
      taps.push(button.dataset.seat);
      showTaps();
      // a finish names cfg.finish_taps seats (the engine's number; the last seat is implied)
      if (taps.length === cfg.finish_taps) { sendTaps(); }
    });
  });
  if ($("send-deal")) { $("send-deal").addEventListener("click", sendTaps); }

  // tractor and chengyu: a small form per deal
  var dealForm = $("deal-form");
  if (dealForm) {
    dealForm.addEventListener("submit", function (event) {
      event.preventDefault();
      var f = dealForm.elements, deal;
      if (cfg.game === "chengyu") {
        deal = {tricks: {EW: parseInt(f.tricks_ew.value, 10), NS: parseInt(f.tricks_ns.value, 10)}};
      } else {
        deal = {defender_points: parseInt(f.defender_points.value, 10)};
        if (f.dealer.value) { deal.dealer = f.dealer.value; }
        if (f.bottom_points.value !== "") {
          deal.bottom_points = parseInt(f.bottom_points.value, 10);
          deal.bottom_multiplier = parseInt(f.bottom_multiplier.value, 10);
        }
        if (f.throw_cards.value) {
          deal.failed_throws = [{side: f.throw_side.value, cards: parseInt(f.throw_cards.value, 10)}];
        }
      }
      addDeal(deal);
      dealForm.reset();
    });
  }

  on("undo-deal", "click", function () {
    if (taps.length) { taps.pop(); showTaps(); return; }
    if (!state.deals.length) { return; }
    removeDeal(state.deals.length - 1);
  });

  if ($("result-note")) {
    $("result-note").value = state.note || "";
    $("result-note").addEventListener("input", function () { state.note = this.value; keep(); });
  }

  // --- submitting ---------------------------------------------------------------------------
  function newSubmission(base) {
    state.pending = correcting ?
      {key: uuid(), path: "correct/", body: {record: record(), base_version: base, reason: state.note || ""}} :
      {key: uuid(), path: "result/", body: {record: record(), base_version: base, note: state.note || ""}};
    keep();
  }

  function sendPending() {
    if (busy.submit || !state.pending) { return; }
    busy.submit = true;
    var p = state.pending;
    render();
    say(T.saving);
    call("POST", p.path, p.body, p.key).then(function (r) {
      busy.submit = false;
      if (r.status === 201 || r.status === 200) {
        setConnection("ok");
        saved(r.data, p);
        say(T.saved.replace("%s", r.data.number), "ok");
        loadHistory();
      } else if (r.status === 409) {
        setConnection("ok");
        state.pending = null;  // nothing stored under that key: the next try gets a new one
        showConflict(r.data.latest || {});
        say("");
      } else if (r.status === 400 || r.status === 422) {
        setConnection("ok");
        state.pending = null;
        if (p.body.record && /deals/.test(r.data.field || "")) { markRefused(r.data); }
        else { say(r.data.error || T.network, "error"); }
      } else if (r.status === 403 && r.data.field !== "login") {
        setConnection("ok");
        state.pending = null;
        say(r.data.error || T.network, "error");
      } else {
        answerTrouble(r);  // kept: the same key is sent again when the server answers
        say("");
      }
      keep(); render();
    });
  }

  // a stored version holds the submitted deals: mark each deal that is still the one sent
  function saved(version, p) {
    var sent = (p.body.record && p.body.record.deals) || [];
    state.deals.forEach(function (d, i) {
      if (i < sent.length && JSON.stringify(d.deal) === JSON.stringify(sent[i])) {
        d.saved = version.number; d.refused = null;
      }
    });
    state.mirror = {number: version.number, count: sent.length};
    state.base = Math.max(state.base, version.number);
    state.pending = null;
    if ($("conflict")) { $("conflict").hidden = true; }
    if (correcting) {  // the correction counts now: the match page shows it
      if (store) { store.removeItem(cfg.storage); }
      state = {match: cfg.match, deals: [], base: 0, mirror: null, pending: null, outcome: null, note: ""};
      window.location.reload();
    }
  }

  on("submit-result", "click", function () {
    if (busy.submit) { return; }
    if (correcting && !state.pending && !(state.note || "").trim()) {
      say(T.reason_needed, "error");
      $("result-note").focus();
      return;
    }
    if (!state.pending) { newSubmission(state.base); }
    sendPending();
  });

  // --- changed meanwhile: the other version's deals beside mine -------------------------------
  function sameDeals(a, b) { return JSON.stringify(a) === JSON.stringify(b); }
  function mine(version) {
    return cfg.user ? version.created_by === cfg.user : (cfg.key && version.via === "table-key");
  }

  function showConflict(latest) {
    conflictLatest = latest;
    var theirs = (latest.record && latest.record.deals) || [];
    var local = state.deals.map(function (d) { return d.deal; });
    if (sameDeals(theirs, local) && latest.number) {  // my own save from another tab or phone
      adopt(latest);
      say(T.own_save.replace("%s", latest.number), "ok");
      return;
    }
    var who = latest.created_by || latest.via || "";
    var own = mine(latest);
    $("conflict-text").textContent = (own ? T.conflict_own : T.conflict)
      .replace("%n", latest.number).replace("%w", who);
    fillList($("conflict-theirs"), theirs, (latest.outcome && latest.outcome.trace) || []);
    fillList($("conflict-mine"), local, (state.outcome && state.outcome.trace) || []);
    $("conflict-theirs-title").textContent = T.version_n.replace("%s", latest.number) + " · " + who;
    $("conflict").hidden = false;
  }

  function fillList(list, deals, trace) {
    list.innerHTML = "";
    deals.forEach(function (deal, i) {
      var li = document.createElement("li");
      li.textContent = describe(deal, trace[i]);
      list.appendChild(li);
    });
    if (!deals.length) {
      var li = document.createElement("li"); li.textContent = T.no_deals; list.appendChild(li);
    }
  }

  // the page shows version `v`'s deals as saved (resume, or the other version chosen)
  function adopt(v) {
    var deals = (v.record && v.record.deals) || [];
    state.deals = deals.map(function (deal) { return {deal: deal, saved: v.number, refused: null}; });
    state.mirror = {number: v.number, count: deals.length};
    state.base = Math.max(state.base, v.number);
    state.outcome = v.outcome && v.outcome.trace ? v.outcome : null;
    state.pending = null;
    if ($("conflict")) { $("conflict").hidden = true; }
    keep(); render();
  }

  on("resubmit", "click", function () {
    if (!conflictLatest || busy.submit) { return; }
    state.base = conflictLatest.number;
    $("conflict").hidden = true;
    newSubmission(conflictLatest.number);
    sendPending();
  });
  on("take-theirs", "click", function () {
    if (conflictLatest) { adopt(conflictLatest); say(""); }
  });

  document.querySelectorAll("button[data-absent]").forEach(function (button) {
    button.addEventListener("click", function () {
      if (busy.submit || !window.confirm(T.confirm_absent)) { return; }
      state.pending = {key: uuid(), path: "forfeit/",
                       body: {absent: button.dataset.absent, base_version: state.base}};
      keep();
      sendPending();
    });
  });

  // --- only the final levels (when the preset allows): scored by the server like any record ---
  function finalRecord() {
    return {game: cfg.game, final_levels: {EW: $("final_ew").value, NS: $("final_ns").value},
      passed_a: $("final_passed").value || null};
  }
  var finalAsked = 0;
  if ($("final-levels")) {
    ["final_ew", "final_ns", "final_passed"].forEach(function (id) {
      $(id).addEventListener("change", function () {
        var asked = ++finalAsked;
        call("POST", "preview/", {record: finalRecord()}).then(function (r) {
          if (asked !== finalAsked) { return; }  // a newer choice is on its way: show only that
          if (r.status === 200) {
            say("");
            $("levels-ew").textContent = r.data.levels.EW;
            $("levels-ns").textContent = r.data.levels.NS;
            var p = r.data.match_points;
            $("match-result").textContent = T.final_levels + " · " + T.points + " " + p.EW + " : " + p.NS;
          } else if (r.status === 400) {
            say(T.refused + " " + (r.data.error || T.network), "error");
          } else { answerTrouble(r); }
        });
      });
    });
    $("submit-final").addEventListener("click", function () {
      if (busy.submit) { return; }
      state.pending = {key: uuid(), path: "result/",
                       body: {record: finalRecord(), base_version: state.base, note: state.note || ""}};
      keep();
      sendPending();
    });
  }

  // --- versions, resume ---------------------------------------------------------------------
  // "2026-12-01 14:43:05" in the event's time zone, as the other pages write times
  function eventTime(iso) {
    var parts = {};
    try {
      new Intl.DateTimeFormat("en-GB", {timeZone: cfg.time_zone, hourCycle: "h23", year: "numeric",
        month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit"})
        .formatToParts(new Date(iso)).forEach(function (p) { parts[p.type] = p.value; });
    } catch (e) { return new Date(iso).toLocaleString(); }
    return parts.year + "-" + parts.month + "-" + parts.day + " " + parts.hour + ":" + parts.minute + ":" + parts.second;
  }
  function loadHistory() {
    if (correcting) { previewWanted = true; return Promise.resolve(true); }
    return call("GET", "result/").then(function (r) {
      if (r.status !== 200) { answerTrouble(r); return false; }
      setConnection("ok");
      var latest = r.data.latest;
      var list = $("history");
      list.innerHTML = "";
      r.data.versions.slice().reverse().forEach(function (v) {
        var li = document.createElement("li");
        var outcome = v.outcome && v.outcome.match_points ?
          v.outcome.match_points.EW + " : " + v.outcome.match_points.NS : (v.kind === "void" ? T.void : "");
        li.textContent = "v" + v.number + " · " + (T["kind_" + v.kind] || v.kind) + " · " + outcome + " · " +
          (v.created_by || v.via) + " · " + eventTime(v.created_at) +
          (v.is_counting ? " · " + T.counts : "");
        if (v.is_counting) { li.className = "counting"; }
        list.appendChild(li);
      });
      $("history-empty").hidden = r.data.versions.length > 0;
      showCaptains(r.data.versions[r.data.versions.length - 1]);
      if (latest) {
        var untouched = !state.pending && (!state.deals.length || !dirtyMirror());
        if (untouched && latest.number > (state.mirror ? state.mirror.number : 0) && latest.record && latest.record.deals) {
          adopt(latest);  // resume from the latest saved version
        }
        state.latest = latest.number;
      }
      keep(); render();
      return true;
    });
  }

  // --- captains confirm on this phone, each signing with their own login ---------------------
  var signVersion = null;
  function showCaptains(v) {
    var card = $("captains");
    if (!card) { return; }
    signVersion = v && !v.is_counting && v.kind !== "void" ? v.number : null;
    card.hidden = signVersion === null;
    if (signVersion === null) { return; }
    var teams = (v.confirmations || []).filter(function (c) { return c.team; })
      .map(function (c) { return c.team; });
    var points = v.outcome && v.outcome.match_points ?
      v.outcome.match_points.EW + " : " + v.outcome.match_points.NS : "";
    $("captains-text").textContent = T.version_n.replace("%s", v.number) + (points ? " · " + points : "") +
      " · " + (teams.length ? T.confirmed_by + " " + teams.join(", ") : T.nobody_confirmed);
  }
  on("captain-form", "submit", function (event) {
    event.preventDefault();
    var button = $("captain-sign");
    if (button.disabled || signVersion === null) { return; }
    button.disabled = true;
    call("POST", "captain-sign/", {version: signVersion, username: $("captain-username").value,
                                   password: $("captain-password").value}).then(function (r) {
      button.disabled = false;
      $("captain-password").value = "";
      if (r.status === 200) {
        $("captain-username").value = "";
        say(r.data.is_counting ? T.counts_now.replace("%s", r.data.number) : T.confirmation_kept, "ok");
        loadHistory();
      } else if (r.status === 0 || r.status >= 500) { answerTrouble(r); }
      else { say(r.data.error || T.network, "error"); }
    });
  });

  // on load, when the network comes back, and after a failure: answer what is waiting
  function resume() {
    loadHistory().then(function (ok) {
      if (!ok) { return; }
      if (state.pending) { sendPending(); }
      if (state.deals.length && (!state.outcome || (state.outcome.trace || []).length !== state.deals.length ||
          state.deals.some(function (d) { return d.refused; }))) { previewWanted = true; }
      runPreview();
    });
  }

  window.addEventListener("online", function () { setConnection("unknown"); resume(); });
  // another tab of this phone changed the kept deals: show them here too (one list per table)
  window.addEventListener("storage", function (event) {
    if (event.key !== cfg.storage) { return; }
    var other = load();
    if (other) { state = other; render(); }
  });
  window.addEventListener("offline", function () { setConnection("offline"); });

  showTaps();
  render();
  if (cfg.revoked) { setConnection("revoked"); } else { resume(); }
})();
