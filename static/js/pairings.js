/* Public pairings: the search box filters the page's tables as you type (a static file: the page
   is cached for everybody, so it cannot carry a per-request CSP nonce). */
(function () {
  var input = document.getElementById("pairing-search");
  if (!input) return;
  input.addEventListener("input", function () {
    var q = input.value.trim().toLowerCase();
    document.querySelectorAll("#pairings tbody tr[data-search]").forEach(function (row) {
      row.hidden = q !== "" && row.getAttribute("data-search").indexOf(q) < 0;
    });
  });
})();
