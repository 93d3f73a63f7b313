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
  var engine = window.paisaiEngine(off);
  var asking = 0;  // the phone's engine's answers awaited

  P.offlineKept = false;
  window.paisaiKeepOffline(off, function () { P.offlineKept = true; });

  P.engine = {
    available: engine.available,
    status: engine.status,
    get startMs() { return engine.startMs; },
    get fromSnapshot() { return engine.fromSnapshot; },
    get snapshotKept() { return engine.snapshotKept; },
    // the preview with no network: {status, data, local: true}; status 0 if it cannot answer.
    // While the engine is still starting the deals waiting for it say so (word()).
    preview: function (record) {
      asking += 1;
      if (engine.status() !== "ready") { P.render(); }
      return engine.ask({kind: "preview", record: record, base: off.base}).then(function (r) {
        asking -= 1;
        return r.status ? {status: r.status, data: r.data, local: true} : {status: 0, data: {}};
      });
    },
    // what a deal with no levels yet says about the phone's engine: starting (a question
    // waits for it), or it could not start and what to do; "" when the engine is not why
    word: function () {
      var st = engine.status();
      if (asking && st !== "ready" && st !== "failed") { return T.engine_starting; }
      var away = navigator.onLine === false || ["offline", "server", "login"].indexOf(P.net.connection) >= 0;
      if (st === "failed" && off && away) { return T.engine_failed; }
      return "";
    },
    // the line under the score: provisional levels, or the server's answer differing
    show: function () {
      var note = P.$("engine-note"), state = P.state;
      if (!note) { return; }
      var text = "";
      if (state.outcomeLocal && state.deals.length) {
        text = P.net.connection === "login" ? T.engine_provisional_login : T.engine_provisional;
      }
      else if (state.engineDiffered) { text = T.engine_differed; }
      else if (state.deals.length) { text = P.engine.word(); }
      note.textContent = text;
      note.hidden = !text;
    }
  };
})();
