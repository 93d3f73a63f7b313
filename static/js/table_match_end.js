/* paisai table page, 3 of 5: the end of the match, always the engine's answer under the match
   format (never a rule worked out here); the time call of a timed format; and, when the
   preset allows, only the final levels instead of every deal. */
(function () {
  "use strict";
  var P = window.paisaiTable, cfg = P.cfg, T = P.T, $ = P.$, state = P.state;

  // the scoreboard and the line under it: the engine's levels (or deals won) and who leads
  P.renderScore = function () {
    var answer = state.outcome, deals = state.deals;
    if (!deals.length && showWhole()) { return; }
    var levels = answer && deals.length ? answer.levels : null;
    var won = answer && deals.length ? answer.deals_won : null;
    $("levels-ew").textContent = levels ? levels.EW : (won ? won.EW : "–");
    $("levels-ns").textContent = levels ? levels.NS : (won ? won.NS : "–");
    var result = $("match-result");
    renderGames(answer);
    if (!answer || !deals.length) {
      // a fresh phone before the saved version arrives: reading it, not "nothing entered yet"
      var reading = cfg.has_versions && !P.loaded && !P.correcting && !cfg.revoked && !state.stored;
      result.textContent = deals.length ? T.not_checked : (reading ? T.loading_saved : T.no_deals);
      return;
    }
    var stale = (answer.trace || []).length !== deals.length ? " · " + T.not_checked : "";
    if (answer.games_won && !answer.over) {  // best of three under way: the games won so far
      // the engine's next step: a game is over, so the next one (game 3 at one game each)
      var step = answer.next ? (cfg.next_steps || {})[answer.next] || "" : "";
      result.textContent = T.games_won + " " + answer.games_won.EW + " : " + answer.games_won.NS +
        (step ? " · " + step : "") + stale;
      return;
    }
    var winner = answer.winner ? sideTeam(answer.winner) : T.draw;
    var points = answer.match_points ? answer.match_points.EW + " : " + answer.match_points.NS : "";
    // a match that is over (a side passed A, the deals or the time are up) is won, not led
    var over = answer.over || answer.passed_a;
    // not over, in the engine's words (idiom chain: a record short of its deals, or tied:
    // "one more deal"); a tied record has no winner and no points yet
    var next = !over && answer.next ? (cfg.next_steps || {})[answer.next] || answer.next : "";
    if (next && !answer.winner) { winner = next; points = ""; }
    result.textContent = (answer.winner ? (over ? T.wins : T.leads).replace("%s", winner) : winner) +
      (points ? " · " + T.points + " " + points : "") +
      // best of three: the games (2 : 1); national preset: 级差分 beside the match points
      (answer.games_won ? " · " + T.games_won + " " + answer.games_won.EW + " : " + answer.games_won.NS : "") +
      (answer.level_points ? " · " + T.level_points + " " + answer.level_points.EW + " : " + answer.level_points.NS : "") +
      (answer.passed_a ? " · " + T.passed_a : "") +
      (next && answer.winner ? " · " + next : "") + stale;
  };

  // the team playing a side: the server's answer (the engine's seating), never decided here
  function sideTeam(side) { return (cfg.side_teams || {})[side] || ""; }

  // no deal on the phone: the scoreboard shows the final levels being chosen (the engine's
  // answer), else what is stored (the latest version: final levels, a forfeit). True: shown.
  function showWhole() {
    var stored = state.stored, shown = finalAnswer, line = "";
    if (shown) { line = T.final_levels; }
    else if (stored && stored.outcome && stored.outcome.match_points) {
      shown = stored.outcome;
      line = T.stored_version.replace("%s", stored.number) + " · " + P.recordSummary(stored.record);
    } else { return false; }
    $("levels-ew").textContent = shown.levels ? shown.levels.EW : "–";
    $("levels-ns").textContent = shown.levels ? shown.levels.NS : "–";
    var p = shown.match_points;
    $("match-result").textContent = line + (shown.games_won ? " · " + T.games_won + " " +
      shown.games_won.EW + " : " + shown.games_won.NS : "") + " · " + T.points + " " + p.EW + " : " + p.NS;
    var games = $("games-line");
    if (games) { games.hidden = true; }
    return true;
  }

  // --- whole records: final levels, forfeits ---------------------------------------------------
  function finalGames(record) {
    return ((record && record.games) || []).filter(function (g) { return g && g.final_levels; });
  }
  // a record with no deals to show one by one: final levels (one game's or each game's), a forfeit
  P.isFinal = function (record) {
    return !!record && (!!record.final_levels || !!record.forfeit || finalGames(record).length > 0);
  };
  function finalPart(record) {
    if (!record) { return null; }
    if (record.final_levels) { return {final_levels: record.final_levels, passed_a: record.passed_a || null}; }
    if (record.forfeit) { return {forfeit: record.forfeit}; }
    return {games: (record.games || []).map(function (g) {
      return {final_levels: g.final_levels || null, passed_a: g.passed_a || null};
    })};
  }
  // the chief's correction of a result without deals (final levels, a forfeit): the
  // scoreboard shows the counting version until something else is entered
  if (P.correcting && P.reference && P.reference.whole && P.reference.final_outcome) {
    state.stored = {number: P.reference.number, record: P.reference.whole, outcome: P.reference.final_outcome};
  }

  // the stored record is the one submission ``p`` sent (a 409 to my own earlier save)
  P.sameFinal = function (stored, sent, p) {
    if (p && p.path === "forfeit/") { return !!stored && stored.forfeit === p.body.absent; }
    return JSON.stringify(finalPart(stored)) === JSON.stringify(finalPart(sent));
  };
  function levelsPair(g) {
    return P.sideName("EW") + " " + g.final_levels.EW + " : " + P.sideName("NS") + " " + g.final_levels.NS +
      (g.passed_a ? " (" + P.sideName(g.passed_a) + " " + T.passed_a + ")" : "");
  }
  // a whole record in words: "final levels 东西 9 : 南北 4", each game's, or the forfeit
  P.recordSummary = function (record) {
    if (!record) { return ""; }
    if (record.forfeit) { return T.stored_forfeit + " " + (record.forfeit === "both" ? "" : P.sideName(record.forfeit)); }
    if (record.final_levels) { return T.stored_final + " " + levelsPair(record); }
    var games = finalGames(record);
    if (!games.length) { return ""; }
    return T.stored_final + " " + (record.games || []).map(function (g, i) {
      return T.game_n.replace("%s", i + 1) + " " + (g.final_levels ? levelsPair(g) : "");
    }).join(" · ");
  };

  // best of three: 第 1 局 … each with the engine's word on it (won by, drawn, in play), and
  // the game the next deal goes into when the engine says the last one is over
  function renderGames(answer) {
    var line = $("games-line");
    if (!line) { return; }
    line.hidden = !P.bestOfThree;
    if (!P.bestOfThree) { return; }
    var checked = P.checked(answer), games = checked ? answer.games || [] : [];
    var count = state.deals.length ? P.gameOf(state.deals[state.deals.length - 1]) + 1 : 1;
    var parts = [];
    for (var g = 0; g < count; g++) {
      var game = games[g], word = T.game_in_play;
      if (game && game.over) { word = game.winner ? T.wins.replace("%s", sideTeam(game.winner)) : T.game_drawn; }
      else if (!checked) { word = T.not_checked; }
      parts.push(T.game_n.replace("%s", g + 1) + " " + word);
    }
    var next = P.nextGame();
    if (next >= count) { parts.push(T.next_game.replace("%s", T.game_n.replace("%s", next + 1))); }
    line.textContent = parts.join(" · ");
    line.dataset.next = String(next + 1);  // the game the next deal goes into (tests read it)
  }

  // the engine's answer covers every deal on the phone
  P.checked = function (answer) {
    return !!answer && state.deals.length > 0 && (answer.trace || []).length === state.deals.length;
  };

  // best of three: the game (0, 1, 2) the next deal goes into. The last game entered, or the
  // next one once the engine's answer covering every deal says it is over and the match goes
  // on (so game 3 is offered only at one game each). Never worked out here: without the
  // engine's answer (offline) the deal goes into the last game, and the engine sorts it out
  // once checked (table_deals.js, laterGame).
  P.nextGame = function () {
    if (!P.bestOfThree || !state.deals.length) { return 0; }
    var last = P.gameOf(state.deals[state.deals.length - 1]), a = state.outcome;
    var game = P.checked(a) && a.games ? a.games[last] : null;
    return game && game.over && !a.over && last < P.lastGame ? last + 1 : last;
  };

  // --- the end of the match (the engine's answer under the match format) ---------------------
  // "" while the match goes on; else why it is over, from the engine's answer covering every
  // deal on the phone. Then the page takes no further deal: it says why before a tap.
  P.overReason = function () {
    var a = state.outcome;
    if (!a || !state.deals.length || (a.trace || []).length !== state.deals.length) { return ""; }
    var end = a.over ? a.end : (a.over === undefined && a.passed_a ? "passed_a" : null);
    return end ? (cfg.end_reasons[end] || end) : "";
  };

  P.showOver = function () {
    var over = P.overReason(), banner = $("match-over");
    if (banner) {
      banner.textContent = over ? T.match_over.replace("%s", over) : "";
      banner.className = "messages-line ok";
      banner.hidden = !over;
    }
    document.querySelectorAll("#deal-form button[type=submit]").forEach(function (b) { b.disabled = !!over && P.editing === null; });
    var called = $("time-called"), callButton = $("time-call"), call = timeCall();
    if (called) {
      called.hidden = !call;
      called.textContent = call ? (P.bestOfThree ? T.game_n.replace("%s", call.game + 1) + " · " : "") +
        T.time_called.replace("%s", call.deal) : "";
    }
    if (callButton) {
      callButton.textContent = call ? T.time_uncall : T.time_call;
      callButton.disabled = P.busy.submit || (!!over && !call);
    }
    return over;
  };

  // the time call of the game in play (best of three: each game has its own): {game, deal}
  function timeCall() {
    if (!P.bestOfThree) { return state.timeCalled ? {game: 0, deal: state.timeCalled} : null; }
    var g = P.nextGame(), deal = (state.timeCalls || {})[g];
    return deal ? {game: g, deal: deal} : null;
  }

  P.on("time-call", "click", function () {
    // the deal in play when time was called: the next deal to be entered (in its game)
    if (P.bestOfThree) {
      var call = timeCall(), g = P.nextGame();
      state.timeCalls = state.timeCalls || {};
      if (call) { delete state.timeCalls[call.game]; }
      else {
        state.timeCalls[g] = state.deals.filter(function (d) { return P.gameOf(d) === g; }).length + 1;
      }
    } else {
      state.timeCalled = state.timeCalled ? null : state.deals.length + 1;
    }
    P.keep(); P.render();
    P.wantPreview();
  });

  // --- only the final levels (when the preset allows): scored by the server like any record ---
  // One row per game (a best of three: up to three; a row left at "–" and those after it are
  // not sent). On the chief's correction it starts from the counting version's final levels
  // and goes to correct/ with the reason.
  var finalAnswer = null, finalAsked = 0;
  var rows = Array.prototype.slice.call(document.querySelectorAll("#final-levels .final-game"));
  function rowGame(row) {
    var ew = row.querySelector(".final-ew").value, ns = row.querySelector(".final-ns").value;
    if (!ew || !ns) { return null; }
    return {final_levels: {EW: ew, NS: ns}, passed_a: row.querySelector(".final-passed").value || null};
  }
  function finalRecord() {
    if (!P.bestOfThree) {
      var one = rowGame(rows[0]);
      return {game: cfg.game, final_levels: one.final_levels, passed_a: one.passed_a};
    }
    var games = [];
    for (var i = 0; i < rows.length; i++) {
      var g = rowGame(rows[i]);
      if (!g) { break; }
      games.push(g);
    }
    return games.length ? {game: cfg.game, games: games} : null;
  }
  P.finalRecord = finalRecord;
  function fillRows(record) {
    var games = record.final_levels ? [record] : (record.games || []);
    rows.forEach(function (row, i) {
      var g = games[i];
      if (!g || !g.final_levels) { return; }
      row.querySelector(".final-ew").value = g.final_levels.EW;
      row.querySelector(".final-ns").value = g.final_levels.NS;
      row.querySelector(".final-passed").value = g.passed_a || "";
    });
  }
  // the engine's answer in words beside the button: each game, games won, match points
  function finalSummary(a) {
    var parts = [];
    (a.games || []).forEach(function (g, i) {
      parts.push(T.game_n.replace("%s", i + 1) + " " + (g.winner ? T.wins.replace("%s", sideTeam(g.winner)) : T.game_drawn));
    });
    if (a.games_won) { parts.push(T.games_won + " " + a.games_won.EW + " : " + a.games_won.NS); }
    if (a.over === false) { parts.push(T.game_in_play); }
    else if (a.winner) { parts.push(T.wins.replace("%s", sideTeam(a.winner))); }
    parts.push(T.points + " " + a.match_points.EW + " : " + a.match_points.NS);
    return parts.join(" · ");
  }
  // the chief's correction of a final-levels result: what changes against the counting version
  P.finalDiff = function () {
    var ref = P.reference, mine = rows.length ? finalRecord() : null;
    if (!ref || !ref.final || !mine) { return ""; }
    if (P.sameFinal(ref.final, mine)) { return T.diff_final_same.replace("%s", ref.number); }
    return T.diff_final.replace("%s", ref.number).replace("%o", P.recordSummary(ref.final))
      .replace("%n", P.recordSummary(mine));
  };

  function previewFinal() {
    var asked = ++finalAsked, record = finalRecord();
    // a new choice: the last word beside the button is old (its refusal is cleared now, so
    // that a refusal of a tap made before the engine's answer stays when that answer comes)
    if (!P.busy.submit) { P.sayAt("final-status", ""); }
    if (!record) { finalAnswer = null; $("final-summary").textContent = T.need_levels; P.render(); return; }
    P.call("POST", "preview/", {record: record}).then(function (r) {
      if (asked !== finalAsked) { return; }  // a newer choice is on its way: show only that
      if (r.status === 200) {
        finalAnswer = r.data;
        $("final-summary").textContent = finalSummary(r.data);
      } else if (r.status === 400) {
        finalAnswer = null;
        $("final-summary").textContent = "";
        P.sayAt("final-status", T.refused + " " + (r.data.error || T.network), "error");
      } else { P.answerTrouble(r); P.sayAt("final-status", P.troubleText(r), "error"); }
      P.render();
    });
  }

  if ($("final-levels")) {
    if (P.correcting && P.reference && P.reference.final) { fillRows(P.reference.final); }
    rows.forEach(function (row) {
      row.querySelectorAll("select").forEach(function (select) {
        select.addEventListener("change", previewFinal);
      });
    });
    $("submit-final").addEventListener("click", function () {
      if (P.busy.submit) { return; }
      var record = finalRecord();
      if (!record) { P.sayAt("final-status", T.need_levels, "error"); return; }
      if (P.correcting && !(state.note || "").trim()) {
        P.sayAt("final-status", T.reason_needed, "error");
        $("result-note").focus();
        return;
      }
      state.pending = P.correcting ?
        {key: P.uuid(), path: "correct/", origin: "final-status",
         body: {record: record, base_version: state.base, reason: state.note || ""}} :
        {key: P.uuid(), path: "result/", origin: "final-status",
         body: {record: record, base_version: state.base, note: state.note || ""}};
      P.keep();
      P.sendPending();
    });
  }
  // after a save the stored version is shown, not the choice
  P.clearFinal = function () { finalAnswer = null; };
})();
