/* The rules desk with no network: the question is put to this phone's rules engine (the
   server's rules_engine in Pyodide, engine_client.js) instead of the server, read from the
   same form by the same code (rules_engine.desk), and the ruling is drawn here as the page
   draws the server's, marked as worked out on this phone. Online, the form posts as always. */
(function () {
  "use strict";
  var form = document.getElementById("desk-form");
  var config = document.getElementById("desk-offline");
  if (!form || !config) { return; }
  var off = JSON.parse(config.textContent || "null");
  var W = JSON.parse(document.getElementById("desk-words").textContent || "{}");
  var engine = window.paisaiEngine(off);
  window.paisaiDesk = {kept: false, engine: engine};
  window.paisaiKeepOffline(off, function () { window.paisaiDesk.kept = true; });
  var SUITS = {S: "♠", H: "♥", C: "♣", D: "♦"};

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) { node.className = cls; }
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    return node;
  }
  function card(code, idiom) {
    var red = code[0] === "H" || code[0] === "D" || code === "BJ";
    var text = code === "LJ" ? W.small_joker : code === "BJ" ? W.big_joker : (SUITS[code[0]] || code[0]) + code.slice(1);
    var node = el("span", "playing-card" + (red ? " red" : ""), text);
    node.dataset.card = code;
    if (idiom) { node.appendChild(el("small", "idiom", idiom)); }
    return node;
  }
  function fields() {
    var data = {};
    new FormData(form).forEach(function (value, name) {
      if (name !== "csrfmiddlewaretoken") { data[name] = typeof value === "string" ? value : ""; }
    });
    return data;
  }

  function draw(result) {
    var s = result.summary || {}, box = document.getElementById("desk-ruling");
    if (!box) { box = el("div", "card"); box.id = "desk-ruling"; form.parentNode.insertBefore(box, form); }
    box.innerHTML = "";
    box.appendChild(el("p", "messages-line warn", W.offline_note)).id = "desk-offline-note";
    var line = el("p");
    var kinds = {legal: ["ok", W.legal], illegal: ["bad", W.illegal], error: ["bad", W.bad_request],
                 plays: ["ok", W.legal_plays]};
    var kind = kinds[s.verdict] || ["ok", W.answer];
    var badge = el("span", "badge " + kind[0], kind[1]);
    badge.id = "verdict";
    line.appendChild(badge);
    if (s.reason) { line.appendChild(document.createTextNode(" " + s.reason + (s.field ? " (" + s.field + ")" : ""))); }
    box.appendChild(line);
    if (s.penalty_points !== null && s.penalty_points !== undefined) {
      var pen = el("p", "", W.penalty + ": " + s.penalty_points + " · " + W.forced + ": ");
      (s.forced_play || []).forEach(function (c) { pen.appendChild(card(c)); });
      box.appendChild(pen);
    }
    if (s.legal_plays) {
      var plays = el("div"); plays.id = "legal-plays";
      plays.appendChild(el("h2", "", W.n_legal_plays.replace("%s", s.legal_plays.count)));
      var list = el("ul", "plays");
      s.legal_plays.plays.forEach(function (play) {
        var li = el("li");
        li.appendChild(el("span", "play-label", play.label));
        play.cards.forEach(function (c) { li.appendChild(document.createTextNode(" ")); li.appendChild(card(c.code, c.idiom)); });
        list.appendChild(li);
      });
      plays.appendChild(list);
      box.appendChild(plays);
    }
    if (s.replay) {
      box.appendChild(el("p", "", W.replay.replace("%t", s.replay.tricks).replace("%p", s.replay.defender_points)));
    }
    var details = el("details"); details.id = "desk-details";
    details.appendChild(el("summary", "", W.details));
    var pre = el("pre", "", JSON.stringify(result.answer, null, 2)); pre.id = "desk-answer";
    details.appendChild(pre);
    box.appendChild(details);
    box.scrollIntoView();
  }

  form.addEventListener("submit", function (event) {
    if (navigator.onLine !== false || !engine.available()) { return; }  // online: the server rules
    event.preventDefault();
    engine.ask({kind: "desk", fields: fields()}).then(function (r) {
      if (r.status === 200) { draw(r.data); }
      else { draw({summary: {verdict: "error", reason: W.engine_failed}, answer: r.data}); }
    });
  });
})();
