/* paisai table page, 4 of 5: the versions. The history list, resuming from the latest saved
   version, "changed meanwhile" (the other version's deals beside mine) and the captains
   signing a version on this phone with their own login. */
(function () {
  "use strict";
  var P = window.paisaiTable, cfg = P.cfg, T = P.T, $ = P.$, state = P.state;
  var conflictLatest = null;

  // people by display name: the API answers usernames with a map to their names (names)
  var names = {};
  function learn(more) { Object.keys(more || {}).forEach(function (u) { names[u] = more[u]; }); }
  function who(version) {
    var user = version.created_by;
    return (user && (names[user] || user)) || (cfg.via_names || {})[version.via] || version.via || "";
  }
  P.learnNames = learn;

  // --- changed meanwhile: the other version's deals beside mine -------------------------------
  function mine(version) {
    return cfg.user ? version.created_by === cfg.user : (cfg.key && version.via === "table-key");
  }

  // a 409 to submission ``p``: the newer version beside what was sent, each deal marked by
  // what a merge does with it (merge: the server's answer, tournaments/results_merge.py):
  // changed there only (kept), changed here only (goes on top), changed on both (a choice).
  // True when the newer version is this very entry (my own save from another tab or phone):
  // adopted, said so.
  var conflictSent = null, conflictMerge = null, choices = {};
  P.showConflict = function (latest, p, merge) {
    conflictLatest = latest;
    conflictSent = p || null;
    conflictMerge = merge || null;
    choices = {};
    var sentRecord = p && p.body.record;
    var wholeRecord = !sentRecord || P.isFinal(sentRecord);  // final levels or a forfeit
    var theirs = P.flat(latest.record);
    var local = state.deals.map(function (d) { return {deal: d.deal, game: P.gameOf(d)}; });
    var same = wholeRecord ? P.sameFinal(latest.record, sentRecord, p) : P.sameDeals(theirs, local);
    if (same && latest.number) {  // my own save from another tab or phone
      adopt(latest);
      P.sayAt(P.statusBox(p), T.own_save.replace("%s", latest.number), "ok");
      return true;
    }
    if (!$("conflict")) { return false; }  // a page without the card: said beside the button
    var by = who(latest);
    var own = mine(latest);
    $("conflict-text").textContent = (own ? T.conflict_own : T.conflict)
      .replace("%n", latest.number).replace("%w", by);
    fillList($("conflict-theirs"), theirs, (latest.outcome && latest.outcome.trace) || [], latest.record, "theirs");
    if (wholeRecord) { fillList($("conflict-mine"), [], [], sentRecord || {forfeit: p.body.absent}, "mine"); }
    else { fillList($("conflict-mine"), local, (state.outcome && state.outcome.trace) || [], null, "mine"); }
    $("conflict-theirs-title").textContent = T.version_n.replace("%s", latest.number) + " · " + by;
    showMerge();
    $("conflict").hidden = false;
    P.net.conflict = latest.number;  // the connection line says: not saved, see below
    P.showConnection();
    return false;
  };

  function dealsText(numbers) {
    return numbers.map(function (n) { return n === "record" ? T.merge_whole : T.deal_n.replace("%s", n); }).join(T.list_sep);
  }
  // the conflicting items: deal numbers and the names of other members ("record": all of it)
  function conflicts() {
    var m = conflictMerge || {};
    return (m.conflicts || []).map(String).concat(m.fields || []);
  }
  // what the merge does, in words, and a choice per deal both sides changed
  function showMerge() {
    var m = conflictMerge, box = $("conflict-merge"), list = $("conflict-choices");
    list.innerHTML = "";
    if (!m) { box.hidden = true; return; }
    var lines = [];
    var theirs = (m.theirs || []).concat((m.theirs_fields || []).filter(function (f) { return f === "record"; }));
    var mineOnly = (m.mine || []).concat((m.mine_fields || []).filter(function (f) { return f === "record"; }));
    if (theirs.length) { lines.push(T.merge_theirs.replace("%d", dealsText(theirs)).replace("%n", m.onto)); }
    if (mineOnly.length) { lines.push(T.merge_mine.replace("%d", dealsText(mineOnly))); }
    var open = conflicts();
    if (open.length) { lines.push(T.merge_conflicts.replace("%d", dealsText(open))); }
    if (!lines.length) { lines.push(T.merge_nothing); }
    box.textContent = lines.join(" ");
    box.hidden = false;
    open.forEach(function (name) {
      var li = document.createElement("li");
      li.dataset.deal = name;
      var label = document.createElement("span");
      label.textContent = (name === "record" ? T.merge_whole : T.deal_n.replace("%s", name)) + "：";
      li.appendChild(label);
      // a correction or a ruling stays unless the chief referee undoes it
      var changedByChief = m.official || [];
      var official = !cfg.chief && (changedByChief.indexOf(0) >= 0 ||
        (name === "record" ? changedByChief.length > 0 : changedByChief.indexOf(Number(name)) >= 0));
      [["theirs", T.choose_theirs.replace("%s", m.onto)], ["mine", T.choose_mine]].forEach(function (c) {
        var b = document.createElement("button");
        b.type = "button"; b.className = "small secondary choose-" + c[0];
        b.dataset.choice = c[0];
        b.textContent = c[1];
        b.setAttribute("aria-pressed", "false");
        b.addEventListener("click", function () {
          choices[name] = c[0];
          li.querySelectorAll("button").forEach(function (x) {
            var on = x.dataset.choice === c[0];
            x.setAttribute("aria-pressed", on ? "true" : "false");
            x.className = "small " + (on ? "" : "secondary ") + "choose-" + x.dataset.choice;
          });
          li.dataset.choice = c[0];
        });
        if (official && c[0] === "mine") { b.disabled = true; }
        li.appendChild(document.createTextNode(" ")); li.appendChild(b);
      });
      if (official) {
        li.dataset.official = "true";
        var why = document.createElement("small");
        why.className = "muted chief-only";
        why.textContent = " " + T.chief_only;
        li.appendChild(why);
      }
      list.appendChild(li);
    });
    list.hidden = !open.length;
  }

  // side: "theirs" or "mine": each deal marked by what the merge does with it
  function fillList(list, deals, trace, record, side) {  // deals: [{deal, game}]
    list.innerHTML = "";
    var summary = !deals.length && record ? P.recordSummary(record) : "";
    var m = conflictMerge || {};
    if (summary) {
      var only = document.createElement("li"); only.textContent = summary;
      markWhole(only, m, side);
      list.appendChild(only);
      return;
    }
    deals.forEach(function (d, i) {
      var li = document.createElement("li");
      var first = P.bestOfThree && (i === 0 || deals[i - 1].game !== d.game);
      li.textContent = (first ? T.game_n.replace("%s", d.game + 1) + " · " : "") + P.describe(d.deal, trace[i]);
      markDeal(li, i + 1, m, side);
      list.appendChild(li);
    });
    if (!deals.length) {
      var li = document.createElement("li"); li.textContent = T.no_deals; list.appendChild(li);
    }
  }
  function mark(li, kind, text) {
    li.dataset.diff = kind;
    var badge = document.createElement("span");
    badge.className = "badge " + (kind === "conflict" ? "bad" : "warn");
    badge.textContent = text;
    li.appendChild(document.createTextNode(" ")); li.appendChild(badge);
  }
  function markDeal(li, n, m, side) {
    if ((m.conflicts || []).indexOf(n) >= 0) { mark(li, "conflict", T.diff_both); }
    else if (side === "theirs" && (m.theirs || []).indexOf(n) >= 0) { mark(li, "theirs", T.diff_theirs); }
    else if (side === "mine" && (m.mine || []).indexOf(n) >= 0) { mark(li, "mine", T.diff_mine); }
    // mine is a whole result (a forfeit, final levels) over these deals: the deals a
    // correction or a ruling changed are the ones it would undo
    else if (side === "theirs" && (m.fields || []).indexOf("record") >= 0 &&
             (m.official || []).indexOf(n) >= 0) { mark(li, "theirs", T.diff_theirs); }
  }
  function markWhole(li, m, side) {
    if ((m.fields || []).indexOf("record") >= 0) { mark(li, "conflict", T.diff_both); }
    else if (side === "theirs" && (m.theirs_fields || []).indexOf("record") >= 0) { mark(li, "theirs", T.diff_theirs); }
    else if (side === "mine" && (m.mine_fields || []).indexOf("record") >= 0) { mark(li, "mine", T.diff_mine); }
  }

  function hideConflict() {
    if ($("conflict")) { $("conflict").hidden = true; }
    P.net.conflict = null;
  }
  P.hideConflict = hideConflict;

  // the page shows version `v`'s deals as saved (resume, or the other version chosen)
  function adopt(v) {
    if (P.isFinal(v.record)) {  // final levels or a forfeit: no deals, the scoreboard shows it
      state.stored = {number: v.number, record: v.record, outcome: v.outcome};
    }
    state.deals = P.isFinal(v.record) ? [] : P.keptDeals(v.record, v.number);
    state.mirror = {number: v.number, count: state.deals.length};
    // the time call the version holds (best of three: each game's)
    var rec = v.record || {};
    state.timeCalled = rec.time_called_in_deal || null;
    state.timeCalls = {};
    (rec.games || []).forEach(function (game, g) {
      if (game.time_called_in_deal) { state.timeCalls[g] = game.time_called_in_deal; }
    });
    state.base = Math.max(state.base, v.number);
    state.outcome = v.outcome && v.outcome.trace ? v.outcome : null;
    state.pending = null;
    state.baseline = null;
    hideConflict();
    P.keep(); P.render();
  }
  P.adopt = adopt;

  // "mine over the newer version": my record merged onto it deal by deal by the server; the
  // others' changes on deals I did not touch stay; each deal both changed needs my choice,
  // and mine over another person's change needs a reason (the note)
  P.on("resubmit", "click", function () {
    if (!conflictLatest || P.busy.submit) { return; }
    var p = conflictSent, m = conflictMerge;
    var open = conflicts().filter(function (name) { return !choices[name]; });
    if (m && open.length) {
      P.sayAt("conflict-status", T.merge_choose.replace("%d", dealsText(open)), "error");
      return;
    }
    var overMine = Object.keys(choices).some(function (k) { return choices[k] === "mine"; });
    if (overMine && !(state.note || "").trim()) {
      P.sayAt("conflict-status", T.merge_reason, "error");
      if ($("result-note")) { $("result-note").focus(); }
      return;
    }
    P.sayAt("conflict-status", "");
    // nothing of mine left to add (every choice keeps theirs, nothing changed here only): the
    // newer version is taken as it is, no new version stored
    var keepsAll = m && !overMine && !(m.mine || []).length && !(m.mine_fields || []).length;
    if (keepsAll) {
      adopt(conflictLatest);
      P.sayAt(P.statusBox(p), T.kept_theirs.replace("%s", conflictLatest.number), "ok");
      return;
    }
    state.base = conflictLatest.number;
    hideConflict();
    // every path merges (a submission, a forfeit, the chief's correction): never a plain
    // resubmission that would replace the newer version whole
    var merge = m && p ? {merge_base: m.base_version, overrides: choices} : null;
    if (p && (!p.body.record || P.isFinal(p.body.record))) {  // the same final levels or forfeit
      var body = {}; Object.keys(p.body).forEach(function (k) { body[k] = p.body[k]; });
      body.base_version = conflictLatest.number;
      if (merge) {
        body.merge_base = merge.merge_base; body.overrides = merge.overrides;
        if (p.path === "correct/") { body.reason = state.note || ""; } else { body.note = state.note || ""; }
      }
      state.pending = {key: P.uuid(), path: p.path, origin: p.origin, body: body};
      P.keep();
    } else {
      P.newSubmission(conflictLatest.number);
      if (merge) {
        state.pending.body.merge_base = merge.merge_base;
        state.pending.body.overrides = merge.overrides;
        P.keep();
      }
    }
    P.sendPending();
  });
  P.on("take-theirs", "click", function () {
    if (conflictLatest) {
      adopt(conflictLatest);
      P.sayAt(P.statusBox(conflictSent), "");
    }
  });

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
  P.loadHistory = function () {
    if (P.correcting) { P.previewLater(); return Promise.resolve(true); }
    return P.call("GET", "result/").then(function (r) {
      P.loaded = true;  // an answer, or none: the page no longer says it is reading
      if (r.status !== 200) { P.answerTrouble(r); P.render(); return false; }
      P.setConnection("ok");
      learn(r.data.names);
      var latest = r.data.latest;
      var list = $("history");
      list.innerHTML = "";
      r.data.versions.slice().reverse().forEach(function (v) {
        var li = document.createElement("li");
        var outcome = v.outcome && v.outcome.match_points ?
          v.outcome.match_points.EW + " : " + v.outcome.match_points.NS : (v.kind === "void" ? T.void : "");
        li.textContent = "v" + v.number + " · " + (T["kind_" + v.kind] || v.kind) + " · " + outcome + " · " +
          who(v) + " · " + ((cfg.via_names || {})[v.via] || v.via || "") + " · " + eventTime(v.created_at) +
          (v.is_counting ? " · " + T.counts : "");
        if (v.is_counting) { li.className = "counting"; }
        list.appendChild(li);
      });
      $("history-empty").hidden = r.data.versions.length > 0;
      showCaptains(r.data.versions[r.data.versions.length - 1]);
      if (latest) {
        var untouched = !state.pending && (!state.deals.length || !P.dirtyMirror());
        if (untouched && latest.number > (state.mirror ? state.mirror.number : 0) && latest.record &&
            (latest.record.deals || latest.record.games) && !P.isFinal(latest.record)) {
          adopt(latest);  // resume from the latest saved version
        }
        state.latest = latest.number;
      }
      // the scoreboard shows what is stored: the latest version (final levels and forfeits too)
      state.stored = latest ? {number: latest.number, record: latest.record, outcome: latest.outcome} : null;
      P.keep(); P.render();
      return true;
    });
  };

  // --- captains confirm on this phone, each signing with their own login ---------------------
  var signVersion = null;
  var signedCounts = null;  // the version the last signature made count: its words stay shown
  function showCaptains(v) {
    var card = $("captains");
    if (!card) { return; }
    signVersion = v && !v.is_counting && v.kind !== "void" ? v.number : null;
    if (signVersion !== null && signedCounts !== null && signVersion !== signedCounts) {
      signedCounts = null;  // a newer version to sign: the last one's words are old news
      P.sayAt("captain-status", "");
    }
    // once the result counts the form goes; what the signature did stays said in the card
    card.hidden = signVersion === null && signedCounts === null;
    $("captain-form").hidden = $("captains-text").hidden = signVersion === null;
    if (signVersion === null) { return; }
    var teams = (v.confirmations || []).filter(function (c) { return c.team; })
      .map(function (c) { return c.team; });
    var points = v.outcome && v.outcome.match_points ?
      v.outcome.match_points.EW + " : " + v.outcome.match_points.NS : "";
    $("captains-text").textContent = T.version_n.replace("%s", v.number) + (points ? " · " + points : "") +
      " · " + (teams.length ? T.confirmed_by + " " + teams.join(", ") : T.nobody_confirmed);
  }
  P.on("captain-form", "submit", function (event) {
    event.preventDefault();
    var button = $("captain-sign");
    if (button.disabled || signVersion === null) { return; }
    button.disabled = true;
    P.call("POST", "captain-sign/", {version: signVersion, username: $("captain-username").value,
                                     password: $("captain-password").value}).then(function (r) {
      button.disabled = false;
      $("captain-password").value = "";
      // what happened is said under the button, with what comes next
      if (r.status === 200) {
        $("captain-username").value = "";
        var team = r.data.signed_for || "", other = r.data.waiting_for;
        if (r.data.is_counting) { signedCounts = r.data.number; }
        P.sayAt("captain-status", r.data.is_counting || !other ?
          T.sign_counts.replace("%t", team).replace("%s", r.data.number) :
          T.sign_waiting.replace("%t", team).replace("%o", other), "ok");
        P.loadHistory();
      } else if (r.status === 0 || r.status >= 500) {
        P.answerTrouble(r);
        P.sayAt("captain-status", T.sign_failed, "error");
      } else { P.sayAt("captain-status", r.data.error || T.network, "error"); }
    });
  });
})();
