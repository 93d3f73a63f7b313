/* paisai table page, 2 of 5: entering deals and the engine's check of them (preview).
   Guandan: tap the seats in finishing order; tractor and idiom-chain: a small form per deal.
   Every change asks the server's engine (newest only) and shows its answer or its reason. */
(function () {
  "use strict";
  var P = window.paisaiTable, cfg = P.cfg, T = P.T, $ = P.$, state = P.state, taps = P.taps;
  var preview = {wanted: false, seq: 0};  // seq: the check whose answer is awaited

  // seats and sides in the page's words (the API's codes E/S/W/N and EW/NS stay in the data)
  function seatName(code) { return (cfg.seat_names || {})[code] || code; }
  function sideName(code) { return (cfg.side_names || {})[code] || code; }
  P.sideName = sideName;

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
  P.describe = describe;

  function levelsText(entry) {
    if (!entry) { return ""; }
    var lv = entry.levels_after || entry.levels;
    var both = lv || entry.tricks;
    if (both) { return sideName("EW") + " " + both.EW + " · " + sideName("NS") + " " + both.NS; }
    return "";
  }

  function sameDeals(a, b) { return JSON.stringify(a) === JSON.stringify(b); }
  P.sameDeals = sameDeals;

  // the levels after each deal before a change (the counting version's on the chief's
  // correction; on the table page, those shown when the first saved deal was changed)
  function baseline() {
    if (P.correcting) { return (P.reference && P.reference.outcome && P.reference.outcome.trace) || []; }
    return state.baseline || [];
  }
  function levelsOf(entry) { var lv = entry && (entry.levels_after || entry.levels || entry.tricks); return lv ? lv.EW + ":" + lv.NS : ""; }
  // deal i reaches other levels than before the change (same deal, a change before it)
  function movedLevels(i, entry) {
    var before = baseline()[i];
    return !!(before && entry && levelsOf(before) !== levelsOf(entry));
  }
  // how many deals kept as they were now reach other levels (the diff summary says so)
  P.levelsChanged = function () {
    var trace = P.checked(state.outcome) ? state.outcome.trace : [], ref = P.reference, n = 0;
    state.deals.forEach(function (d, i) {
      var same = P.correcting ? (ref && i < ref.deals.length && sameDeals(d.deal, ref.deals[i])) : true;
      if (same && movedLevels(i, trace[i])) { n += 1; }
    });
    return n;
  };

  function dealState(d, i, entry) {
    var reference = P.reference;
    if (d.refused) { return [T.deal_refused + " " + d.refused, "bad"]; }
    if (P.correcting && reference) {  // what changes against the counting version
      if (i >= reference.deals.length) { return [T.diff_new, "warn"]; }
      if (!sameDeals(d.deal, reference.deals[i])) { return [T.diff_changed, "warn"]; }
      return movedLevels(i, entry) ? [T.diff_changed + "：" + T.levels_changed, "warn"] : [T.diff_same, "ok"];
    }
    var sending = P.busy.submit && state.pending && state.pending.body.record &&
      P.flat(state.pending.body.record);
    if (sending && i < sending.length && d.saved === null) { return [T.deal_sending, "warn"]; }
    if (d.saved !== null) { return [T.deal_saved.replace("%s", d.saved), "ok"]; }
    if (movedLevels(i, entry)) { return [T.deal_local + " · " + T.levels_changed, "warn"]; }
    return [T.deal_local, "warn"];
  }

  // the deal list under the engine's answer (each deal with its levels after and its state)
  P.renderDeals = function (answer) {
    var deals = state.deals;
    var list = $("deal-list");
    list.innerHTML = "";
    var trace = (answer && answer.trace) || [];
    // how many deals the shown answer covers (tests and the "not checked" mark read it)
    list.dataset.checked = String(answer && deals.length ? trace.length : 0);
    var inGame = 0;
    deals.forEach(function (d, i) {
      var li = document.createElement("li");
      var entry = trace.length === deals.length || i < trace.length ? trace[i] : null;
      var g = P.gameOf(d), first = i === 0 || P.gameOf(deals[i - 1]) !== g;
      inGame = first ? 1 : inGame + 1;  // best of three: deals counted per game
      if (P.bestOfThree) {
        li.dataset.game = String(g + 1);
        if (first) {  // 第 n 局: where each game starts
          var head = document.createElement("strong");
          head.className = "game-label";
          head.textContent = T.game_n.replace("%s", g + 1);
          li.appendChild(head); li.appendChild(document.createTextNode(" "));
        }
      }
      var text = document.createElement("span");
      text.className = "deal-text";
      var before = baseline()[i];
      var moved = entry && !d.refused && movedLevels(i, entry);
      text.textContent = "#" + (P.bestOfThree ? inGame : i + 1) + " " + describe(d.deal, entry) +
        (entry && !d.refused ? " → " + (moved ? levelsText(before) + " → " : "") + levelsText(entry) : "");
      var st = dealState(d, i, entry);
      var badge = document.createElement("span");
      badge.className = "badge deal-state " + st[1];
      badge.textContent = st[0];
      li.appendChild(text); li.appendChild(document.createTextNode(" ")); li.appendChild(badge);
      // no levels yet because the phone's engine is starting (offline), or could not start
      var wait = !entry && !d.refused && P.engine ? P.engine.word() : "";
      if (wait) {
        var why = document.createElement("small");
        why.className = "engine-wait muted";
        why.textContent = " " + wait;
        li.appendChild(why);
      }
      li.dataset.state = d.refused ? "refused" : (d.saved !== null ? "saved" : "local");
      if (moved) { li.dataset.levels = "changed"; }
      if (P.editing === i) { li.classList.add("editing"); }
      if (!d.refused) {  // change this deal in place: the deals after it stay
        var edit = document.createElement("button");
        edit.type = "button"; edit.className = "small secondary edit-deal";
        edit.textContent = T.edit;
        edit.disabled = P.busy.submit;
        edit.addEventListener("click", function () { P.editDeal(i); });
        li.appendChild(document.createTextNode(" ")); li.appendChild(edit);
      }
      if (d.refused) {
        var remove = document.createElement("button");
        remove.type = "button"; remove.className = "small secondary remove-deal";
        remove.textContent = T.remove;
        remove.addEventListener("click", function () { removeDeal(i); });
        li.appendChild(document.createTextNode(" ")); li.appendChild(remove);
      }
      list.appendChild(li);
    });
  };

  // --- the engine's check (preview): queued, newest only ------------------------------------
  P.record = function () {
    if (P.bestOfThree) { return gamesRecord(state.deals); }
    var rec = {game: cfg.game, deals: state.deals.map(function (d) { return d.deal; })};
    if (cfg.timed && state.timeCalled) { rec.time_called_in_deal = state.timeCalled; }
    return rec;
  };
  // best of three: {"games": [{"deals": [...], "time_called_in_deal"?}, ...]}, at least game 1
  function gamesRecord(deals) {
    var games = [{deals: []}];
    deals.forEach(function (d) {
      while (games.length <= P.gameOf(d)) { games.push({deals: []}); }
      games[P.gameOf(d)].deals.push(d.deal);
    });
    var calls = state.timeCalls || {};
    if (cfg.timed) {
      games.forEach(function (game, g) { if (calls[g]) { game.time_called_in_deal = calls[g]; } });
    }
    return {game: cfg.game, games: games};
  }

  P.wantPreview = function () {
    preview.wanted = true;
    runPreview();
  };
  P.previewLater = function () { preview.wanted = true; };
  // the network is back while a check still waits (on the phone's engine, say, still
  // starting): that answer no longer matters; the next check goes to the server at once
  P.restartPreview = function () {
    if (P.busy.preview) { preview.seq += 1; P.busy.preview = false; preview.wanted = true; }
  };

  function runPreview() {
    var busy = P.busy;
    if (busy.preview || !preview.wanted) { return; }
    if (!state.deals.length) { preview.wanted = false; state.outcome = null; P.keep(); P.render(); return; }
    preview.wanted = false;
    busy.preview = true;
    var sent = JSON.stringify(P.record()), seq = ++preview.seq;
    P.call("POST", "preview/", {record: JSON.parse(sent)}).then(function (r) {
      if (seq !== preview.seq) { return; }  // given up for a newer check (P.restartPreview)
      busy.preview = false;
      var current = JSON.stringify(P.record()) === sent;
      if (r.local) {  // the phone's engine answered (no network, no login): provisional, asked again later
        P.answerTrouble(r.trouble || {status: 0, data: {}});
        preview.wanted = true;
      }
      if (r.status === 200) {
        if (!r.local) { P.setConnection("ok"); }
        if (current) {
          // the server's answer after the phone's: differing levels are said (the server's count)
          state.engineDiffered = !r.local && !!state.outcomeLocal && !!state.outcome &&
            JSON.stringify(state.outcome.trace) !== JSON.stringify(r.data.trace);
          state.outcomeLocal = !!r.local;
          state.outcome = r.data;
          state.deals.forEach(function (d) { d.refused = null; });
          P.say("");
          P.matchRefusal("");
          P.net.attempts = 0;
        }
      } else if (r.status === 400) {
        if (!r.local) { P.setConnection("ok"); }
        if (current) { state.outcomeLocal = !!r.local; }
        if (current && !(P.bestOfThree && laterGame(r.data, sent))) { P.markRefused(r.data); }
      } else {
        P.answerTrouble(r);
        preview.wanted = true;  // check again once the server answers
      }
      P.keep(); P.render();
      if (preview.wanted && P.net.connection === "ok") { runPreview(); }
    });
  }
  P.runPreview = runPreview;

  // best of three, deals entered while the engine could not say a game was over (offline):
  // refused at games[g].deals[k]. When the engine answers that game g was over after its k
  // deals and the match goes on, deal k and after belong to game g + 1: moved, checked again.
  // Any other answer: the deal is refused with the reason, as for one game. True: asked.
  function laterGame(data, sent) {
    if (data.code !== "deal_refused" || typeof data.game_deal !== "number") { return false; }
    var g = data.game, k = data.game_deal;
    var rec = JSON.parse(sent);
    if (k < 1 || g !== rec.games.length - 1 || g >= P.lastGame) { return false; }
    var before = {game: rec.game, games: rec.games.slice(0, g + 1)};
    before.games[g] = {deals: rec.games[g].deals.slice(0, k)};
    if (rec.games[g].time_called_in_deal) { before.games[g].time_called_in_deal = rec.games[g].time_called_in_deal; }
    P.busy.preview = true;
    var seq = ++preview.seq;
    P.call("POST", "preview/", {record: before}).then(function (r) {
      if (seq !== preview.seq) { return; }  // given up for a newer check (P.restartPreview)
      P.busy.preview = false;
      var game = r.status === 200 && r.data.games && r.data.games[g];
      if (JSON.stringify(P.record()) !== sent) { preview.wanted = true; }  // changed meanwhile
      else if (game && game.over && !r.data.over) {
        var seen = 0;
        state.deals.forEach(function (d) {
          if (P.gameOf(d) === g) { seen += 1; if (seen > k) { d.game = g + 1; } }
        });
        preview.wanted = true;
      } else if (r.status === 0 || r.status >= 500) {
        P.answerTrouble(r); preview.wanted = true;
      } else { P.markRefused(data); }
      P.keep(); P.render();
      if (preview.wanted && P.net.connection === "ok") { runPreview(); }
    });
    return true;
  }

  // the server's refusal: a deal (code deal_refused, ``deal`` its index among all deals) or a
  // game (game_refused: its first deal) is marked with the reason; any other refusal is the
  // match's, said on the scoreboard, never on a deal
  P.markRefused = function (data) {
    var at = -1;
    if (data.code === "deal_refused" && typeof data.deal === "number") { at = data.deal; }
    else if (data.code === "game_refused" && typeof data.game === "number") {
      at = state.deals.findIndex(function (d) { return P.gameOf(d) === data.game; });
    }
    if (at >= state.deals.length) { at = state.deals.length - 1; }
    state.deals.forEach(function (d, i) { d.refused = i === at ? (data.error || T.refused) : null; });
    if (at < 0) { P.matchRefusal(data.error || T.refused); }
    P.say(T.refused + " " + (data.error || ""), "error");
  };

  // --- entering deals ---------------------------------------------------------------------
  function addDeal(deal) {
    if (cfg.closed) { return; }  // a finalised round takes no entry (the page says why)
    if (P.editing !== null && P.editing < state.deals.length) {  // a deal changed in place
      var i = P.editing, old = state.deals[i];
      state.deals[i] = {deal: deal, game: P.gameOf(old), saved: null, refused: null};
      stopEditing();
      P.keep(); P.render();
      P.wantPreview();
      return;
    }
    var over = P.overReason();
    if (over) { P.say(T.over_no_more.replace("%s", over), "error"); P.render(); return; }
    state.deals.push({deal: deal, game: P.nextGame(), saved: null, refused: null});
    P.keep(); P.render();
    P.wantPreview();
  }

  // --- changing one deal in place (the deals after it stay; their levels follow) ------------
  P.editing = null;
  P.editDeal = function (i) {
    if (P.busy.submit || i >= state.deals.length) { return; }
    if (!P.correcting && !state.baseline && P.checked(state.outcome)) {
      state.baseline = state.outcome.trace.slice();  // the levels before the change: old → new
    }
    P.editing = i;
    taps.length = 0;
    var d = state.deals[i];
    var box = $("editing");
    $("editing-text").textContent = T.editing.replace("%s", i + 1).replace("%w", describe(d.deal));
    box.hidden = false;
    fillForm(d.deal);
    P.keep(); P.render();
    var target = document.querySelector(".compass") || dealForm;
    if (target && target.scrollIntoView) { target.scrollIntoView({block: "center"}); }
  };
  function stopEditing() {
    P.editing = null;
    if ($("editing")) { $("editing").hidden = true; }
  }
  P.on("editing-cancel", "click", function () { stopEditing(); taps.length = 0; P.showTaps(); P.render(); });
  // tractor and chengyu: the form shows the deal being changed
  function fillForm(deal) {
    var form = $("deal-form");
    if (!form) { return; }
    var f = form.elements;
    if (deal.tricks) { f.tricks_ew.value = deal.tricks.EW; f.tricks_ns.value = deal.tricks.NS; return; }
    if (f.defender_points) {
      f.defender_points.value = deal.defender_points;
      f.dealer.value = deal.dealer || "";
      f.bottom_points.value = deal.bottom_points === undefined ? "" : deal.bottom_points;
      if (deal.bottom_multiplier) { f.bottom_multiplier.value = deal.bottom_multiplier; }
      var t = (deal.failed_throws || [])[0];
      f.throw_cards.value = t ? t.cards : "";
      if (t) { f.throw_side.value = t.side; }
    }
  }

  function removeDeal(i) {
    state.deals.splice(i, 1);
    P.keep(); P.render();
    P.wantPreview();
  }

  // guandan: tap the seats in finishing order; each tapped seat shows its place
  P.showTaps = function () {
    var order = $("finish-order");
    if (order) { order.textContent = taps.length ? taps.map(seatName).join(" ") : T.tap_first; }
    document.querySelectorAll("button.seat").forEach(function (b) {
      var place = taps.indexOf(b.dataset.seat);
      b.disabled = place >= 0 || (!!P.overReason() && P.editing === null);
      b.querySelector(".place").textContent = place >= 0 ? String(place + 1) : "";
      b.classList.toggle("tapped", place >= 0);
    });
    var send = $("send-deal");
    if (send) {  // 双上 only when the first two out are partners (the engine's partner table)
      send.disabled = !(taps.length === 2 && cfg.partners[taps[0]] === taps[1]);
    }
    $("undo-deal").disabled = P.busy.submit || (!taps.length && !state.deals.length);
  };

  function sendTaps() {
    var finish = taps.slice();
    taps.length = 0;
    P.showTaps();
    addDeal({finish: finish});
  }

  document.querySelectorAll("button.seat").forEach(function (button) {
    button.addEventListener("click", function () {
      if (taps.indexOf(button.dataset.seat) >= 0) { return; }
      taps.push(button.dataset.seat);
      P.showTaps();
      // a finish names cfg.finish_taps seats (the engine's number; the last seat is implied)
      if (taps.length === cfg.finish_taps) { sendTaps(); }
    });
  });
  P.on("send-deal", "click", sendTaps);

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

  P.on("undo-deal", "click", function () {
    if (taps.length) { taps.pop(); P.showTaps(); return; }
    if (P.editing !== null) { stopEditing(); P.render(); return; }
    if (!state.deals.length) { return; }
    removeDeal(state.deals.length - 1);
  });
})();
