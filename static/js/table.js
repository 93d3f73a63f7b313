/* paisai table page, 5 of 5: drawing the page, submitting, start-up. Loaded after
   table_store.js, table_deals.js, table_match_end.js and table_history.js (see
   table_store.js for what each holds); they share window.paisaiTable. */
(function () {
  "use strict";
  var P = window.paisaiTable, cfg = P.cfg, T = P.T, $ = P.$, state = P.state, busy = P.busy;

  function render() {
    var deals = state.deals;
    P.renderScore();
    P.renderDeals(state.outcome);
    P.showOver();
    P.showTaps();
    var submit = $("submit-result");
    var refused = deals.some(function (d) { return d.refused; });
    var reference = P.reference;
    var changed = P.correcting ? !P.sameDeals(entered(), reference ? reference.deals : []) : P.dirtyMirror();
    submit.disabled = busy.submit || (!state.pending && (!deals.length || refused || !changed));
    submit.textContent = busy.submit ? T.saving : (state.pending ? T.retry_submit : (P.correcting ? T.save_correction : T.submit));
    if (P.correcting && $("diff-summary")) { $("diff-summary").textContent = diffSummary(); }
    $("undo-deal").disabled = busy.submit || (!P.taps.length && !deals.length);
    document.querySelectorAll("button[data-absent], #submit-final").forEach(function (b) {
      b.disabled = busy.submit;  // a request in flight disables every button that would send
    });
    P.showConnection();
    if (P.engine) { P.engine.show(); }
  }
  P.render = render;
  function entered() { return state.deals.map(function (d) { return d.deal; }); }

  function diffSummary() {
    var reference = P.reference;
    if (reference && reference.final && !state.deals.length) { return P.finalDiff(); }
    var ref = reference ? reference.deals : [], mine = entered(), changed = 0, added = 0;
    mine.forEach(function (deal, i) {
      if (i >= ref.length) { added += 1; } else if (!P.sameDeals(deal, ref[i])) { changed += 1; }
    });
    var removed = Math.max(0, ref.length - mine.length);
    var n = reference ? reference.number : 0;
    if (!changed && !added && !removed) { return T.diff_nothing.replace("%s", n); }
    var later = P.levelsChanged ? P.levelsChanged() : 0;
    return T.diff_summary.replace("%s", n).replace("%c", changed).replace("%a", added).replace("%r", removed) +
      (later ? " " + T.diff_later.replace("%s", later) : "");
  }

  if ($("result-note")) {
    $("result-note").value = state.note || "";
    $("result-note").addEventListener("input", function () { state.note = this.value; P.keep(); });
  }

  // --- submitting ---------------------------------------------------------------------------
  // a submission: {key, path, body, origin}; origin names the button it came from, so what
  // happens to it is said beside that button (submit-status, final-status, absent-status)
  P.newSubmission = function (base) {
    state.pending = P.correcting ?
      {key: P.uuid(), path: "correct/", origin: "submit-status",
       body: {record: P.record(), base_version: base, reason: state.note || ""}} :
      {key: P.uuid(), path: "result/", origin: "submit-status",
       body: {record: P.record(), base_version: base, note: state.note || ""}};
    P.keep();
  };
  function statusBox(p) { return (p && p.origin) || "submit-status"; }
  P.statusBox = statusBox;

  P.sendPending = function () {
    if (busy.submit || !state.pending) { return; }
    if (cfg.closed) {  // a finalised round takes no entry: kept on the phone, never sent
      P.sayAt(statusBox(state.pending), cfg.closed, "error");
      return;
    }
    busy.submit = true;
    var p = state.pending, box = statusBox(p);
    render();
    P.sayAt(box, P.net.attempts ? T.retrying.replace("%s", P.net.attempts + 1) : T.saving, "warn");
    P.call("POST", p.path, p.body, p.key).then(function (r) {
      busy.submit = false;
      var code = r.data.code || "";
      if (r.status === 201 || r.status === 200) {
        P.net.attempts = 0;
        P.setConnection("ok");
        P.matchRefusal("");
        var word = P.correcting ? T.correction_saved : (P.isFinal(p.body.record) ? T.final_saved : T.saved);
        saved(r.data, p);
        // merged onto a newer version: the stored record holds the others' changes too
        if (p.body.merge_base !== undefined && r.data.record) { P.adopt(r.data); word = T.merged_saved; }
        P.sayAt(box, word.replace("%s", r.data.number), "ok");
        P.loadHistory();
      } else if (r.status === 409 && r.data.latest) {  // changed meanwhile: the newer version
        P.setConnection("ok");
        state.pending = null;  // nothing stored under that key: the next try gets a new one
        P.learnNames(r.data.names);
        if (!P.showConflict(r.data.latest || {}, p, r.data.merge)) {
          P.sayAt(box, T.not_saved.replace("%s", r.data.error || T.network), "error");
        }
      } else if (r.status === 400 || r.status === 422 || r.status === 409) {  // 409: the state
        P.setConnection("ok");
        state.pending = null;
        if (code === "deal_refused" || code === "game_refused") {
          P.markRefused(r.data);
          P.sayAt(box, T.not_saved.replace("%s", r.data.error || "") + " " + T.fix_the_deal, "error");
        } else {
          if (code === "match_not_over" || code === "record_refused") { P.matchRefusal(r.data.error); }
          P.sayAt(box, T.not_saved.replace("%s", r.data.error || T.network) + " " + T.fix_and_resubmit, "error");
        }
      } else if (r.status === 403 && code !== "login") {
        P.setConnection("ok");
        state.pending = null;
        P.sayAt(box, T.not_saved.replace("%s", r.data.error || T.network) + " " + T.ask_chief, "error");
      } else {
        P.answerTrouble(r);  // kept: the same key is sent again when the server answers
        P.sayAt(box, P.troubleText(r), "error");
      }
      P.keep(); render();
    });
  };

  // a stored version holds the submitted deals: mark each deal that is still the one sent
  function saved(version, p) {
    var sent = P.flat(p.body.record);
    state.deals.forEach(function (d, i) {
      if (i < sent.length && P.gameOf(d) === sent[i].game &&
          JSON.stringify(d.deal) === JSON.stringify(sent[i].deal)) {
        d.saved = version.number; d.refused = null;
      }
    });
    state.mirror = {number: version.number, count: sent.length};
    state.base = Math.max(state.base, version.number);
    state.pending = null;
    state.baseline = null;  // the levels before a change: the saved version holds the change
    if (P.clearFinal) { P.clearFinal(); }
    P.hideConflict();
    if (P.correcting) {  // the correction counts now: the match page shows it
      if (P.store) { P.store.removeItem(cfg.storage); }
      P.replaceState(P.fresh());
      window.location.reload();
    }
  }

  P.on("submit-result", "click", function () {
    if (busy.submit) { return; }
    if (P.correcting && !state.pending && !(state.note || "").trim()) {
      P.sayAt("submit-status", T.reason_needed, "error");
      $("result-note").focus();
      return;
    }
    if (!state.pending) { P.newSubmission(state.base); }
    P.sendPending();
  });

  document.querySelectorAll("button[data-absent]").forEach(function (button) {
    button.addEventListener("click", function () {
      if (busy.submit || !window.confirm(T.confirm_absent)) { return; }
      state.pending = {key: P.uuid(), path: "forfeit/", origin: "absent-status",
                       body: {absent: button.dataset.absent, base_version: state.base}};
      P.keep();
      P.sendPending();
    });
  });

  // on load, when the network comes back, and after a failure: answer what is waiting
  P.resume = function () {
    P.loadHistory().then(function (ok) {
      if (!ok) { return; }
      if (state.pending) { P.sendPending(); }
      if (state.deals.length && (!state.outcome || state.outcomeLocal || (state.outcome.trace || []).length !== state.deals.length ||
          state.deals.some(function (d) { return d.refused; }))) { P.previewLater(); }
      P.runPreview();
    });
  };

  window.addEventListener("online", function () {
    P.setConnection("unknown");
    P.restartPreview();
    P.resume();
  });
  // another tab of this phone changed the kept deals: show them here too (one list per table)
  window.addEventListener("storage", function (event) {
    if (event.key !== cfg.storage) { return; }
    var other = P.load();
    if (other) { P.replaceState(other); render(); }
  });
  window.addEventListener("offline", function () { P.setConnection("offline"); });

  P.showTaps();
  render();
  if (cfg.closed) { P.sayAt("submit-status", cfg.closed, "error"); }
  if (cfg.revoked) { P.setConnection("revoked"); } else { P.resume(); }
})();
