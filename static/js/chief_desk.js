/* The chief referee's desk (templates/tournaments/homes/chief.html): every 20 seconds the
   counts are read again from the desk's JSON (data-counts-url) and written into each
   [data-count] element; when one changed, a link offers the new lists (the page is not
   reloaded under the chief's thumb). A failed read says so beside the counts. */
(function () {
  var live = document.getElementById("desk-live");
  if (!live || !window.fetch) return;
  var url = live.dataset.countsUrl;
  var reload = document.getElementById("desk-reload");
  var PERIOD = 20000;

  function apply(counts) {
    var changed = false;
    document.querySelectorAll("[data-count]").forEach(function (el) {
      var key = el.dataset.count;
      if (!(key in counts)) return;
      var value = String(counts[key]);
      if (el.textContent.trim() !== value) {
        el.textContent = value;
        el.classList.add("changed");
        changed = true;
      }
    });
    if (changed && reload) reload.hidden = false;
  }

  function poll() {
    if (document.hidden) return;
    fetch(url, {credentials: "same-origin", headers: {"Accept": "application/json"}})
      .then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        return response.json();
      })
      .then(function (body) {
        live.classList.remove("stale");
        apply(body.counts || {});
      })
      .catch(function () { live.classList.add("stale"); });
  }
  setInterval(poll, PERIOD);
  document.addEventListener("visibilitychange", poll);
})();
