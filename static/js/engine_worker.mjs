/* The table phone's rules engine, in a Web Worker so that the page stays usable while
   Pyodide and the engine download (once per phone and version: the service worker keeps them).
   Started by table_engine.js with ?engine=<zip URL>&pyodide=<Pyodide's folder URL>.
   Messages in: {id, kind: "preview", record, base, lang} or {id, kind: "desk", fields, lang};
   out: {id, status, data} (status -1: the engine could not start or answer; data.error says why),
   and once {ready: true, ms} or {ready: false, error}. */
const params = new URL(self.location.href).searchParams;
let engine = null;
let failure = "";
const started = Date.now();

const ready = (async function () {
  const pyodideURL = params.get("pyodide");
  const mod = await import(pyodideURL + "pyodide.mjs");
  const core = await import(new URL("engine_core.mjs", self.location.href).href);
  const answer = await fetch(params.get("engine"));
  if (!answer.ok) { throw new Error("engine " + answer.status); }
  const bytes = new Uint8Array(await answer.arrayBuffer());
  engine = await core.startEngine(mod.loadPyodide, pyodideURL, bytes);
  self.postMessage({ready: true, ms: Date.now() - started});
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
