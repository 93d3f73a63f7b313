/* The incident form (templates/arbitration/incident_form.html): the team and player lists
   follow the match. Choosing a match of the current round rebuilds them from the page's
   data (its two teams, its four players each with team and seat); another match reloads the
   page for it. Choosing a player preselects their team. The server checks everything again. */
(function () {
  "use strict";
  var data = document.getElementById("choices-by-match");
  var form = document.getElementById("incident-form");
  if (!data || !form) { return; }
  var byMatch = JSON.parse(data.textContent);
  var match = form.elements.match, team = form.elements.team, player = form.elements.player;
  if (!match || !team || !player) { return; }

  function fill(select, rows, keep) {
    var chosen = keep ? select.value : "";
    select.innerHTML = "";
    var none = document.createElement("option");
    none.value = ""; none.textContent = "---------";
    select.appendChild(none);
    rows.forEach(function (row) {
      var option = document.createElement("option");
      option.value = String(row[0]); option.textContent = row[1];
      if (row.length > 2) { option.dataset.team = String(row[2]); }
      select.appendChild(option);
    });
    select.value = chosen;
    if (select.value !== chosen) { select.value = ""; }
  }

  match.addEventListener("change", function () {
    var choices = byMatch[match.value];
    if (choices) {
      fill(team, choices.teams, true);
      fill(player, choices.players, true);
    } else if (match.value) {
      var url = new URL(window.location.href);
      url.searchParams.set("match", match.value);
      url.searchParams.delete("team");
      window.location.assign(url.toString());
    }
  });
  player.addEventListener("change", function () {
    var option = player.options[player.selectedIndex];
    if (option && option.dataset.team) { team.value = option.dataset.team; }
  });
  // the lists of the match already chosen carry each player's team too
  var current = byMatch[match.value];
  if (current) {
    Array.prototype.forEach.call(player.options, function (option) {
      current.players.forEach(function (row) { if (String(row[0]) === option.value) { option.dataset.team = String(row[2]); } });
    });
  }
})();
