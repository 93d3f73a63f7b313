/* The rules engine on this phone (the server's rules_engine in Pyodide, in the Web Worker
   engine_worker.mjs), for the pages that work with no network: the table page
   (table_engine.js) and the rules desk (desk.js). window.paisaiEngine(off) starts one worker
   for the page's `off` config ({worker, engine, pyodide, base, lang}, from
   tournaments/services/offline.py) once the page has loaded, so the page is usable while
   Pyodide downloads; ask(message) answers a Promise of {status, data}: status 200 or 400 (the
   engine's answer), 0 (the engine could not start or answer). */
(function () {
  "use strict";
  window.paisaiEngine = function (off) {
    var worker = null, waiting = {}, nextId = 1, status = "none";  // none|loading|ready|failed
    // startMs: ms from the worker's start to the engine's first possible answer;
    // fromSnapshot: it started from this phone's kept snapshot; snapshotKept: the bytes of the
    // snapshot this start kept (0 if it could not keep one), null until then
    // error: why the engine could not start (null while it starts or once it runs)
    var client = {startMs: null, fromSnapshot: null, snapshotKept: null, error: null};

    // the engine could not start: every question still waiting is answered (status 0), so
    // no deal waits for ever for an answer that never comes
    function fail(why) {
      status = "failed";
      client.error = why || "engine";
      var left = waiting;
      waiting = {};
      Object.keys(left).forEach(function (id) { left[id]({status: -1, data: {error: client.error}}); });
    }

    var starting = null;

    // The worker starts once the service worker controls this page (at most 15 s, then
    // anyway), so that what it fetches (Pyodide's 9.6 MB wasm, its stdlib, the engine's zip)
    // passes through the service worker and is kept as it arrives: each file is downloaded
    // once (the service worker's install keeps only the pages' own small files).
    function whenControlled() {
      if (!off.sw || !("serviceWorker" in navigator) || navigator.serviceWorker.controller) {
        return Promise.resolve();
      }
      return new Promise(function (resolve) {
        navigator.serviceWorker.addEventListener("controllerchange", function () { resolve(); });
        setTimeout(resolve, 15000);
        if (window.paisaiOfflineRefused) { window.paisaiOfflineRefused.then(resolve); }
      });
    }

    function create() {
      try {
        worker = new Worker(off.worker + "&engine=" + encodeURIComponent(off.engine) +
                            "&pyodide=" + encodeURIComponent(off.pyodide), {type: "module"});
      } catch (e) { fail(String(e && e.message || e)); return; }
      worker.onmessage = function (event) {
        var msg = event.data || {};
        if (msg.ready !== undefined) {
          if (msg.ready) { status = "ready"; } else { fail(msg.error); }
          client.startMs = msg.ms;
          client.fromSnapshot = !!msg.fromSnapshot;
          return;
        }
        if (msg.kept !== undefined) { client.snapshotKept = msg.kept; return; }
        var done = waiting[msg.id];
        delete waiting[msg.id];
        if (done) { done(msg); }
      };
      worker.onerror = function () { fail("worker"); };
    }

    function start() {
      if (starting) { return starting; }
      if (!off || typeof Worker === "undefined") { return Promise.resolve(); }
      status = "loading";
      starting = whenControlled().then(create);
      return starting;
    }

    client.available = function () { return !!off && typeof Worker !== "undefined" && status !== "failed"; };
    client.status = function () { return status; };
    client.ask = function (message) {
      if (!off || typeof Worker === "undefined" || status === "failed") {
        return Promise.resolve({status: 0, data: {}});
      }
      return start().then(function () {
        if (!worker || status === "failed") { return {status: 0, data: {}}; }
        var id = nextId++;
        return new Promise(function (resolve) {
          waiting[id] = function (msg) {
            if (msg.status === 200 || msg.status === 400) { resolve({status: msg.status, data: msg.data || {}}); }
            else { resolve({status: 0, data: msg.data || {}}); }
          };
          message.id = id;
          message.lang = off.lang;
          worker.postMessage(message);
        });
      });
    };
    if (off) {
      if (document.readyState === "complete") { start(); }
      else { window.addEventListener("load", start); }
    }
    return client;
  };

  // the engine's files, kept by the service worker as the engine worker fetches them
  function engineKept(off) {
    var wanted = [off.engine, off.pyodide + "pyodide.asm.wasm", off.pyodide + "python_stdlib.zip"];
    return caches.open("paisai-files-" + off.version).then(function (cache) {
      return Promise.all(wanted.map(function (url) { return cache.match(url, {ignoreVary: true}); }));
    }).then(function (found) { return found.every(Boolean); });
  }

  function waitForEngineKept(off, tries) {
    return engineKept(off).then(function (kept) {
      if (kept || tries <= 0) { return kept; }
      return new Promise(function (resolve) { setTimeout(resolve, 500); })
        .then(function () { return waitForEngineKept(off, tries - 1); });
    });
  }

  // the service worker keeps the page's files and, as they arrive, the engine's; the page
  // keeps itself, so that one online visit is enough for it to open with no network (the
  // worker keeps later copies). onKept() runs once the page and the engine's files are kept.
  window.paisaiKeepOffline = function (off, onKept) {
    if (!off || !off.sw || !("serviceWorker" in navigator) || !window.caches) { return; }
    var refused;
    window.paisaiOfflineRefused = new Promise(function (resolve) { refused = resolve; });
    navigator.serviceWorker.register(off.sw, {scope: "/"}).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function () {
      return caches.open("paisai-pages-" + off.version).then(function (cache) {
        return cache.add(window.location.href);
      });
    }).then(function () {
      return waitForEngineKept(off, 600);  // up to 5 minutes on a slow venue network
    }).then(function (kept) { if (kept && onKept) { onKept(); } }).catch(function () { refused(); });
  };
})();
