/* The rules desk on a phone.
 * 1. Only the inputs of the chosen game and question show (all stay visible without JS).
 * 2. A card picker: tap a card field's "Pick cards" button, then tap cards of the grid
 *    (two decks for guandan, three for tractor, one for the idiom game) to add copies; in
 *    remove mode a tap takes one off. The text field stays the source of truth, so typed
 *    cards and tapped cards mix, and the form posts the same text either way. */
(function () {
  "use strict";
  var uses = {
    level: ["guandan:check", "guandan:classify", "tractor:check"],
    trump: ["tractor:check", "chengyu:check"],
    hand: ["guandan:check", "tractor:check", "chengyu:check"],
    previous: ["guandan:check"], lead: ["tractor:check"], trick: ["chengyu:check"],
    play: ["guandan:check", "tractor:check", "chengyu:check"],
    "throw": ["tractor:check"], others: ["tractor:check"], cards: ["guandan:classify"],
    list_plays: ["guandan:check", "tractor:check", "chengyu:check"],
    hands: ["guandan:check", "tractor:check"], play_log: ["guandan:check", "tractor:check"],
    dealer: ["tractor:check"], bottom: ["tractor:check"]
  };
  var CARD_FIELDS = ["hand", "previous", "lead", "trick", "play", "throw", "cards", "bottom",
                     "hands", "play_log"];
  var RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"];
  var game = document.getElementById("id_game"), action = document.getElementById("id_action");
  if (!game || !action) { return; }
  var data = JSON.parse(document.getElementById("picker-data").textContent || "{}");
  var words = document.getElementById("picker-words").dataset;
  var picker = document.getElementById("card-picker");
  var grid = document.getElementById("picker-grid");
  var target = null, removing = false;

  function refresh() {
    var key = game.value + ":" + action.value;
    Object.keys(uses).forEach(function (name) {
      var input = document.getElementById("id_" + name);
      var box = input && input.closest(".field");
      if (box) { box.hidden = uses[name].indexOf(key) < 0; }
    });
    if (target && target.closest(".field").hidden) { close(); }
    if (target) { draw(); }
  }

  function normal(code) {
    code = code.toUpperCase().replace(/^([SHCD])T$/, "$110");
    return code;
  }
  function lines(input) { return input.tagName === "TEXTAREA"; }
  function cardsOf(input) {
    // in a hands or play log box, "E:" and "东：" name a seat, not a card
    return input.value.split(/[\s,，、;；]+/).filter(function (word) {
      return word && !/[:：]$/.test(word) && !/^[ESWNeswn东南西北]$/.test(word);
    }).map(function (word) { return normal(word.replace(/^.*[:：]/, "")); }).filter(Boolean);
  }
  function count(list, code) {
    return list.filter(function (c) { return c === code; }).length;
  }
  function decks() { return (data.decks || {})[game.value] || 2; }

  function cell(code, label, red) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "pick" + (red ? " red" : "");
    button.dataset.card = code;
    var idiom = (data.idioms || {})[code];
    button.innerHTML = "";
    var face = document.createElement("span");
    face.textContent = label;
    button.appendChild(face);
    if (idiom && game.value === "chengyu") {
      var small = document.createElement("small");
      small.textContent = idiom;
      button.appendChild(small);
    }
    var badge = document.createElement("b");
    badge.className = "copies";
    button.appendChild(badge);
    button.addEventListener("click", function () { tap(code); });
    return button;
  }

  function seatRow() {
    // a box of lines: a seat button starts the next line ("N:"), in the order of play
    var row = document.createElement("div");
    row.className = "pick-row seats";
    ["E", "N", "W", "S"].forEach(function (seat) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "pick seat";
      button.dataset.seat = seat;
      button.textContent = seat + ":";
      button.addEventListener("click", function () {
        var text = target.value.replace(/\s*$/, "");
        target.value = (text ? text + "\n" : "") + seat + ":";
        counts();
      });
      row.appendChild(button);
    });
    return row;
  }

  function draw() {
    grid.innerHTML = "";
    if (lines(target)) { grid.appendChild(seatRow()); }
    var suits = data.suits || {};
    Object.keys(suits).forEach(function (suit) {
      var row = document.createElement("div");
      row.className = "pick-row";
      RANKS.forEach(function (rank) {
        row.appendChild(cell(suit + rank, suits[suit] + rank, suit === "H" || suit === "D"));
      });
      grid.appendChild(row);
    });
    if (game.value !== "chengyu") {
      var jokers = document.createElement("div");
      jokers.className = "pick-row";
      Object.keys(data.jokers || {}).forEach(function (code) {
        jokers.appendChild(cell(code, data.jokers[code], code === "BJ"));
      });
      grid.appendChild(jokers);
    }
    counts();
  }

  function counts() {
    if (!target) { return; }
    var list = cardsOf(target);
    grid.querySelectorAll(".pick[data-card]").forEach(function (button) {
      var n = count(list, button.dataset.card);
      button.querySelector(".copies").textContent = n ? "×" + n : "";
      button.classList.toggle("chosen", n > 0);
      button.disabled = !removing && n >= decks();
    });
  }

  function tap(code) {
    var list = cardsOf(target);
    if (lines(target)) {
      // a box of lines ("E: S3 S3"): add to the last line, or take the last copy off
      if (removing) {
        var text = target.value, at = text.lastIndexOf(code);
        if (at >= 0) { target.value = (text.slice(0, at) + text.slice(at + code.length)).replace(/ +$/gm, ""); }
      } else if (count(list, code) < decks()) {
        target.value = target.value.replace(/\s*$/, "") + " " + code;
      }
    } else if (removing) {
      var index = list.lastIndexOf(code);
      if (index >= 0) { list.splice(index, 1); }
      target.value = list.join(" ");
    } else if (count(list, code) < decks()) {
      list.push(code);
      target.value = list.join(" ");
    }
    counts();
  }

  function open(input) {
    target = input;
    var label = document.querySelector("label[for='" + input.id + "']");
    document.getElementById("picker-target").textContent =
      words["for"] + " " + (label ? label.textContent : input.name);
    input.closest(".field").appendChild(picker);
    picker.hidden = false;
    draw();
  }
  function close() { picker.hidden = true; target = null; }

  CARD_FIELDS.forEach(function (name) {
    var input = document.getElementById("id_" + name);
    if (!input) { return; }
    var button = document.createElement("button");
    button.type = "button";
    button.className = "small secondary pick-open";
    button.id = "pick-" + name;
    button.textContent = words.pick;
    button.addEventListener("click", function () { open(input); });
    input.insertAdjacentElement("afterend", button);
    input.addEventListener("input", counts);
  });
  document.getElementById("picker-close").addEventListener("click", close);
  document.getElementById("picker-clear").addEventListener("click", function () {
    if (target) { target.value = ""; counts(); }
  });
  document.getElementById("picker-remove").addEventListener("click", function () {
    removing = !removing;
    this.setAttribute("aria-pressed", removing ? "true" : "false");
    this.classList.toggle("secondary", !removing);
    counts();
  });
  game.addEventListener("change", refresh);
  action.addEventListener("change", refresh);
  refresh();
})();
