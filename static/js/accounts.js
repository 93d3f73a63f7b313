/* The accounts page: "select all" buttons for the captain list (data-select-all names the
   check boxes; data-only="without" keeps to rows marked data-without), and the team search
   of the roles page (input[data-team-search]: suggestions from its data-url into the
   datalist it names, typed name, pinyin initials or number). */
(function () {
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-select-all]");
    if (!button) return;
    var form = button.form || document;
    var only = button.dataset.only;
    form.querySelectorAll('input[type=checkbox][name="' + button.dataset.selectAll + '"]').forEach(function (box) {
      var row = box.closest("tr");
      box.checked = !only || (row && row.hasAttribute("data-" + only));
    });
  });

  document.querySelectorAll("input[data-team-search][data-url]").forEach(function (input) {
    var list = document.getElementById(input.getAttribute("list"));
    if (!list || !window.fetch) return;
    var timer = null, asked = "";
    input.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(function () {
        var q = input.value.trim();
        if (!q || q === asked) return;
        asked = q;
        fetch(input.dataset.url + "?q=" + encodeURIComponent(q), {credentials: "same-origin"})
          .then(function (r) { return r.ok ? r.json() : {teams: []}; })
          .then(function (body) {
            list.textContent = "";
            (body.teams || []).forEach(function (team) {
              var option = document.createElement("option");
              option.value = team.name;
              option.label = team.label;
              list.appendChild(option);
            });
          })
          .catch(function () {});
      }, 200);
    });
  });
})();
