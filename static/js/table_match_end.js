/* paisai table page, 3 of 5: the end of the match, always the engine's answer under the match
   format (never a rule worked out here); the time call of a timed format; and, when the
   preset allows, only the final levels instead of every deal. */
(function () {
  "use strict";
  var P = window.paisaiTable, cfg = P.cfg, T = P.T, $ = P.$, state = P.state;

  // the scoreboard and the line under it: the engine's levels (or deals won) and who leads
  P.renderScore = function () {
    var answer = state.outcome, deals = state.deals;
    var levels = answer && deals.length ? answer.levels : null;
    var won = answer && deals.length ? answer.deals_won : null;
    $("levels-ew").textContent = levels ? levels.EW : (won ? won.EW : "–");
    $("levels-ns").textContent = levels ? levels.NS : (won ? won.NS : "–");
    var result = $("match-result");
    renderGames(answer);
    if (!answer || !deals.length) {
      result.textContent = deals.length ? T.not_checked : T.no_deals;
      return;
    }
    var stale = (answer.trace || []).length !== deals.length ? " · " + T.not_checked : "";
    if (answer.games_won && !answer.over) {  // best of three under way: the games won so far
      result.textContent = T.games_won + " " + answer.games_won.EW + " : " + answer.games_won.NS + stale;
      return;
    }
    var winner = answer.winner ? (answer.winner === "EW" ? cfg.home : cfg.away) : T.draw;
    var points = answer.match_points ? answer.match_points.EW + " : " + answer.match_points.NS : "";
    // a match that is over (a side passed A, the deals or the time are up) is won, not led
    var over = answer.over || answer.passed_a;
    result.textContent = (answer.winner ? (over ? T.wins : T.leads).replace("%s", winner) : winner) +
      (points ? " · " + T.points + " " + points : "") +
      // best of three: the games (2 : 1); national preset: 级差分 beside the match points
      (answer.games_won ? " · " + T.games_won + " " + answer.games_won.EW + " : " + answer.games_won.NS : "") +
      (answer.level_points ? " · " + T.level_points + " " + answer.level_points.EW + " : " + answer.level_points.NS : "") +
      (answer.passed_a ? " · " + T.passed_a : "") + stale;
  };

  function sideTeam(side) { return side === "EW" ? cfg.home : cfg.away; }

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
    return game && game.over && !a.over && last < 2 ? last + 1 : last;
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
    document.querySelectorAll("#deal-form button[type=submit]").forEach(function (b) { b.disabled = !!over; });
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
  function finalRecord() {
    return {game: cfg.game, final_levels: {EW: $("final_ew").value, NS: $("final_ns").value},
      passed_a: $("final_passed").value || null};
  }
  var finalAsked = 0;
  if ($("final-levels")) {
    ["final_ew", "final_ns", "final_passed"].forEach(function (id) {
      $(id).addEventListener("change", function () {
        var asked = ++finalAsked;
        P.call("POST", "preview/", {record: finalRecord()}).then(function (r) {
          if (asked !== finalAsked) { return; }  // a newer choice is on its way: show only that
          if (r.status === 200) {
            P.say("");
            $("levels-ew").textContent = r.data.levels.EW;
            $("levels-ns").textContent = r.data.levels.NS;
            var p = r.data.match_points;
            $("match-result").textContent = T.final_levels + " · " + T.points + " " + p.EW + " : " + p.NS;
          } else if (r.status === 400) {
            P.say(T.refused + " " + (r.data.error || T.network), "error");
          } else { P.answerTrouble(r); }
        });
      });
    });
    $("submit-final").addEventListener("click", function () {
      if (P.busy.submit) { return; }
      state.pending = {key: P.uuid(), path: "result/",
                       body: {record: finalRecord(), base_version: state.base, note: state.note || ""}};
      P.keep();
      P.sendPending();
    });
  }
})();
