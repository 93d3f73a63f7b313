/* The table phone's rules engine, in a Web Worker so that the page stays usable while
   Pyodide and the engine download (once per phone and version: the service worker keeps them).
   Started by table_engine.js with ?v=<version>&engine=<zip URL>&pyodide=<Pyodide's folder URL>.
   Messages in: {id, kind: "preview", record, base, lang} or {id, kind: "desk", fields, lang};
   out: {id, status, data} (status -1: the engine could not start or answer; data.error says why),
   once {ready: true, ms, fromSnapshot} or {ready: false, error}, and {kept: bytes} when this
   phone has kept the engine's start-up snapshot.

   The snapshot (engine_core.mjs): the first start on a phone makes it and keeps it, gzipped,
   in the cache "paisai-snapshot-<version>" (the service worker drops it with the version);
   later starts, offline included, begin from it. */
const params = new URL(self.location.href).searchParams;
let engine = null;
let failure = "";
const started = Date.now();
const SNAPSHOTS = "paisai-snapshot-" + (params.get("v") || "");

function snapshotKey() {
  return new URL(params.get("engine") + "?snapshot=" + encodeURIComponent(params.get("pyodide")),
                 self.location.href).href;
}

// the kept snapshot, or null: none kept, unreadable, or not read within 10 s (then the engine
// starts plainly rather than wait)
function keptSnapshot() {
  const late = new Promise(function (resolve) { setTimeout(function () { resolve(null); }, 10000); });
  return Promise.race([readSnapshot(), late]);
}

async function readSnapshot() {
  try {
    if (!self.caches) { return null; }
    const cache = await caches.open(SNAPSHOTS);
    const kept = await cache.match(snapshotKey());
    if (!kept) { return null; }
    const plain = kept.body.pipeThrough(new DecompressionStream("gzip"));
    return new Uint8Array(await new Response(plain).arrayBuffer());
  } catch (err) {
    return null;
  }
}

async function keepSnapshot(bytes, replace) {
  if (!self.caches || typeof CompressionStream === "undefined") { return 0; }
  const cache = await caches.open(SNAPSHOTS);
  if (replace) { await cache.delete(snapshotKey()); }
  const packed = new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"));
  const response = new Response(packed, {headers: {"Content-Type": "application/octet-stream"}});
  const blob = await response.blob();
  await cache.put(snapshotKey(), new Response(blob));
  return blob.size;
}

const ready = (async function () {
  const pyodideURL = params.get("pyodide");
  const snapshot = keptSnapshot();
  const mod = await import(pyodideURL + "pyodide.mjs");
  const core = await import(new URL("engine_core.mjs", self.location.href).href);
  const answer = await fetch(params.get("engine"));
  if (!answer.ok) { throw new Error("engine " + answer.status); }
  const bytes = new Uint8Array(await answer.arrayBuffer());
  const kept = await snapshot;
  engine = await core.startEngine(mod.loadPyodide, pyodideURL, bytes,
                                  {snapshot: kept, makeSnapshot: !kept || undefined});
  self.postMessage({ready: true, ms: Date.now() - started, fromSnapshot: engine.fromSnapshot});
  if (engine.snapshot) {
    const made = engine.snapshot;
    engine.snapshot = null;
    keepSnapshot(made, engine.snapshotDropped).then(function (size) {
      self.postMessage({kept: size});
    }, function () { self.postMessage({kept: 0}); });
  }
})().catch(function (err) {
  failure = String(err && err.message || err);
  self.postMessage({ready: false, error: failure});
});

self.onmessage = async function (event) {
  const msg = event.data || {};
  try {
    await ready;
    if (!engine) { throw new Error(failure || "engine not started"); }
    const answer = msg.kind === "desk" ? engine.desk(msg.fields, msg.lang)
      : engine.preview(msg.record, msg.base, msg.lang);
    self.postMessage({id: msg.id, status: answer.status, data: answer.data});
  } catch (err) {
    self.postMessage({id: msg.id, status: -1, data: {error: String(err && err.message || err)}});
  }
};
