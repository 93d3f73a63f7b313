/* paisai table page: enter a match deal by deal without reloading.
   No rule of the games lives here: every deal is sent to the server's rules engine
   ("preview": scores, stores nothing) and the page shows its answer or its reason. */
(function () {
  "use strict";
  var cfg = JSON.parse(document.getElementById("table-config").textContent);
  var T = JSON.parse(document.getElementById("table-strings").textContent);
  var deals = [];
  var taps = [];
  var baseVersion = 0;
  var pending = null;
  var $ = function (id) { return document.getElementById(id); };

  function csrf() {
    var m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return m ? decodeURIComponent(m[1]) : "";
  }

  function call(method, path, body) {
    var headers = {"Accept": "application/json", "Content-Type": "application/json"};
    if (cfg.key) { headers["X-Table-Key"] = cfg.key; } else { headers["X-CSRFToken"] = csrf(); }
    return fetch(cfg.api + path, {
      method: method, headers: headers, credentials: "same-origin",
      body: body ? JSON.stringify(body) : undefined
    }).then(function (response) {
      return response.json().catch(function () { return {error: T.network}; })
        .then(function (data) { return {status: response.status, data: data}; });
    }, function () { return {status: 0, data: {error: T.network}}; });
  }

  function say(text, kind) {
    var box = $("table-message");
    box.textContent = text || "";
    box.className = "messages-line " + (kind || "");
    box.hidden = !text;
  }

  function record() {
    return {game: cfg.game, deals: deals.slice()};
  }

  function showOutcome(answer) {
    var levels = answer && answer.levels;
    $("levels-ew").textContent = levels ? levels.EW : (answer && answer.deals_won ? answer.deals_won.EW : "–");
    $("levels-ns").textContent = levels ? levels.NS : (answer && answer.deals_won ? answer.deals_won.NS : "–");
    var result = $("match-result");
    if (!answer || !deals.length) { result.textContent = T.no_deals; return; }
    var winner = answer.winner ? (answer.winner === "EW" ? cfg.home : cfg.away) : T.draw;
    var points = answer.match_points ? answer.match_points.EW + " : " + answer.match_points.NS : "";
    result.textContent = (answer.winner ? T.leads.replace("%s", winner) : winner) +
      (points ? " · " + T.points + " " + points : "") + (answer.passed_a ? " · " + T.passed_a : "");
    var list = $("deal-list");
    list.innerHTML = "";
    (answer.trace || []).forEach(function (entry, i) {
      var li = document.createElement("li");
      li.textContent = "#" + (i + 1) + " " + describe(deals[i]) + " → " + levelsText(entry);
      list.appendChild(li);
    });
  }

  function levelsText(entry) {
    var lv = entry.levels_after || entry.levels;
    if (lv) { return "EW " + lv.EW + " · NS " + lv.NS; }
    if (entry.tricks) { return "EW " + entry.tricks.EW + " · NS " + entry.tricks.NS; }
    return "";
  }

  function describe(deal) {
    if (!deal) { return ""; }
    if (deal.finish) { return deal.finish.join(" "); }
    if (deal.tricks) { return "EW " + deal.tricks.EW + " : NS " + deal.tricks.NS; }
    return (deal.dealer ? deal.dealer + " " : "") + T.defenders + " " + deal.defender_points;
  }

  var previewAsked = 0;
  function preview(keepMessage) {
    if (!deals.length) { showOutcome(null); return Promise.resolve(true); }
    var mine = ++previewAsked, sent = deals.slice();
    return call("POST", "preview/", {record: {game: cfg.game, deals: sent}}).then(function (r) {
      if (r.status === 200) {
        if (mine === previewAsked) {  // answers may overtake one another: show the newest only
          showOutcome(r.data);
          if (!keepMessage) { say(""); }
        }
        return true;
      }
      var at = deals.indexOf(sent[sent.length - 1]);
      if (at >= 0) { deals.splice(at); }  // drop the refused deal (and any typed after it)
      $("submit-result").disabled = !deals.length;
      say(T.refused + " " + (r.data.error || ""), "error");
      return preview(true).then(function () { return false; });
    });
  }

  function addDeal(deal) {
    deals.push(deal);
    $("submit-result").disabled = false;
    return preview();
  }

  // --- guandan: tap the seats in finishing order ---
  function showTaps() {
    var order = $("finish-order");
    if (order) { order.textContent = taps.length ? taps.join(" ") : T.tap_first; }
    document.querySelectorAll("button.seat").forEach(function (b) {
      b.disabled = taps.indexOf(b.dataset.seat) >= 0;
    });
    var send = $("send-deal");
    if (send) { send.disabled = taps.length < 2; }
  }

  function sendTaps() {
    var finish = taps.slice();
    taps = [];
    showTaps();
    return addDeal({finish: finish});
  }

  document.querySelectorAll("button.seat").forEach(function (button) {
    button.addEventListener("click", function () {
      taps.push(button.dataset.seat);
      showTaps();
      if (taps.length === 3) { sendTaps(); }
    });
  });
  if ($("send-deal")) { $("send-deal").addEventListener("click", sendTaps); }

  // --- tractor and chengyu: a small form per deal ---
  var dealForm = $("deal-form");
  if (dealForm) {
    dealForm.addEventListener("submit", function (event) {
      event.preventDefault();
      var f = dealForm.elements;
      var deal;
      if (cfg.game === "chengyu") {
        var ew = parseInt(f.tricks_ew.value, 10);
        deal = {tricks: {EW: ew, NS: parseInt(f.tricks_ns.value, 10)}};
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
      addDeal(deal).then(function (ok) { if (ok) { dealForm.reset(); } });
    });
  }

  $("undo-deal").addEventListener("click", function () {
    if (taps.length) { taps.pop(); showTaps(); return; }
    deals.pop();
    $("submit-result").disabled = !deals.length;
    preview();
  });

  // --- submitting, conflicts, history ---
  function submit(body, path) {
    say(T.saving);
    return call("POST", path || "result/", body).then(function (r) {
      if (r.status === 201) {
        baseVersion = r.data.number;
        pending = null;
        $("conflict").hidden = true;
        say(T.saved.replace("%s", r.data.number), "ok");
        loadHistory();
      } else if (r.status === 409) {
        pending = {body: body, path: path};
        var latest = r.data.latest || {};
        $("conflict-text").textContent = r.data.error + " (v" + latest.number + ", " +
          (latest.created_by || latest.via || "") + ")";
        $("conflict").hidden = false;
        say("");
        loadHistory();
      } else {
        say(r.data.error || T.network, "error");
      }
    });
  }

  $("submit-result").addEventListener("click", function () {
    submit({record: record(), base_version: baseVersion, note: $("result-note").value});
  });
  $("resubmit").addEventListener("click", function () {
    if (pending) { pending.body.base_version = baseVersion; submit(pending.body, pending.path); }
  });
  document.querySelectorAll("button[data-absent]").forEach(function (button) {
    button.addEventListener("click", function () {
      if (!window.confirm(T.confirm_absent)) { return; }
      var body = {absent: button.dataset.absent, base_version: baseVersion};
      submit(body, "forfeit/");
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
          } else {
            say(T.refused + " " + (r.data.error || T.network), "error");
          }
        });
      });
    });
    $("submit-final").addEventListener("click", function () {
      submit({record: finalRecord(), base_version: baseVersion, note: $("result-note").value});
    });
  }

  function loadHistory() {
    return call("GET", "result/").then(function (r) {
      if (r.status !== 200) { return; }
      baseVersion = r.data.latest ? r.data.latest.number : 0;
      var list = $("history");
      list.innerHTML = "";
      r.data.versions.slice().reverse().forEach(function (v) {
        var li = document.createElement("li");
        var outcome = v.outcome && v.outcome.match_points ?
          v.outcome.match_points.EW + " : " + v.outcome.match_points.NS : (v.kind === "void" ? T.void : "");
        li.textContent = "v" + v.number + " · " + v.kind + " · " + outcome + " · " +
          (v.created_by || v.via) + " · " + (v.source || "") + " · " +
          new Date(v.created_at).toLocaleString() + (v.is_counting ? " · " + T.counts : "");
        if (v.is_counting) { li.className = "counting"; }
        list.appendChild(li);
      });
      $("history-empty").hidden = r.data.versions.length > 0;
    });
  }

  showTaps();
  showOutcome(null);
  loadHistory();
})();
