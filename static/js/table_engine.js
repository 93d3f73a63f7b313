/* paisai table page: the rules engine on the phone, for when the network is gone.

   With no network the preview (the engine's check of the deals entered) is answered here by
   the server's own rules engine running in Pyodide in a Web Worker (engine_worker.mjs), so the
   referee still sees the levels after each deal, who plays next, whether the match is over and
   why a deal is refused. Nothing counts without the server: such an answer is marked
   provisional on the page until the server has answered the same deals, and where the server's
   answer differs the page shows the server's and says so (table_deals.js asks again once the
   network is back). The worker starts after the page has drawn, so the page is usable while
   Pyodide downloads (once per phone and version: the service worker, /sw.js, keeps it).

   Also registers the service worker that keeps this page and its files for use offline. */
(function () {
  "use strict";
  var P = window.paisaiTable, cfg = P.cfg, T = P.T;
  var off = cfg.offline || null;
  var worker = null, waiting = {}, nextId = 1, status = "none";  // none | loading | ready | failed
  var started = 0;

  // the service worker keeps the page's files; the page keeps itself, so that one online
  // visit is enough for it to open with no network (the worker keeps later copies)
  P.offlineKept = false;
  if (off && off.sw && "serviceWorker" in navigator && window.caches) {
    navigator.serviceWorker.register(off.sw, {scope: "/"}).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function () {
      return caches.open("paisai-pages-" + off.version).then(function (cache) {
        return cache.add(window.location.href);
      });
    }).then(function () { P.offlineKept = true; }).catch(function () {});
  }

  function start() {
    if (worker || !off || typeof Worker === "undefined") { return; }
    try {
      worker = new Worker(off.worker + "&engine=" + encodeURIComponent(off.engine) +
                          "&pyodide=" + encodeURIComponent(off.pyodide), {type: "module"});
    } catch (e) { status = "failed"; return; }
    status = "loading";
    started = Date.now();
    worker.onmessage = function (event) {
      var msg = event.data || {};
      if (msg.ready !== undefined) { status = msg.ready ? "ready" : "failed"; P.engine.startMs = msg.ms; return; }
      var done = waiting[msg.id];
      delete waiting[msg.id];
      if (done) { done(msg); }
    };
    worker.onerror = function () { status = "failed"; };
  }

  function ask(record) {
    start();
    if (!worker || status === "failed") { return Promise.resolve({status: 0, data: {}}); }
    var id = nextId++;
    return new Promise(function (resolve) {
      waiting[id] = function (msg) {
        if (msg.status === 200 || msg.status === 400) {
          resolve({status: msg.status, data: msg.data || {}, local: true});
        } else { resolve({status: 0, data: {}}); }  // the phone's engine could not answer
      };
      worker.postMessage({id: id, kind: "preview", record: record, base: off.base, lang: off.lang});
    });
  }

  P.engine = {
    available: function () { return !!off && typeof Worker !== "undefined" && status !== "failed"; },
    preview: ask,
    status: function () { return status; },
    // the line under the score: provisional levels, or the server's answer differing
    show: function () {
      var note = P.$("engine-note"), state = P.state;
      if (!note) { return; }
      var text = "";
      if (state.outcomeLocal && state.deals.length) { text = T.engine_provisional; }
      else if (state.engineDiffered) { text = T.engine_differed; }
      note.textContent = text;
      note.hidden = !text;
    }
  };

  // the engine downloads in the background once the page has drawn (it is usable meanwhile)
  if (off) {
    if (document.readyState === "complete") { start(); }
    else { window.addEventListener("load", start); }
  }
})();
