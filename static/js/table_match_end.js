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
    if (!answer || !deals.length) {
      result.textContent = deals.length ? T.not_checked : T.no_deals;
      return;
    }
    var winner = answer.winner ? (answer.winner === "EW" ? cfg.home : cfg.away) : T.draw;
    var points = answer.match_points ? answer.match_points.EW + " : " + answer.match_points.NS : "";
    var stale = (answer.trace || []).length !== deals.length ? " · " + T.not_checked : "";
    // a match that is over (a side passed A, the deals or the time are up) is won, not led
    var over = answer.over || answer.passed_a;
    result.textContent = (answer.winner ? (over ? T.wins : T.leads).replace("%s", winner) : winner) +
      (points ? " · " + T.points + " " + points : "") + (answer.passed_a ? " · " + T.passed_a : "") + stale;
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
    var called = $("time-called"), callButton = $("time-call");
    if (called) {
      called.hidden = !state.timeCalled;
      called.textContent = state.timeCalled ? T.time_called.replace("%s", state.timeCalled) : "";
    }
    if (callButton) {
      callButton.textContent = state.timeCalled ? T.time_uncall : T.time_call;
      callButton.disabled = P.busy.submit || (!!over && !state.timeCalled);
    }
    return over;
  };

  P.on("time-call", "click", function () {
    // the deal in play when time was called: the next deal to be entered
    state.timeCalled = state.timeCalled ? null : state.deals.length + 1;
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
