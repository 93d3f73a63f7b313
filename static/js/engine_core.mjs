/* The rules engine in Pyodide: one start-up shared by the table phone's Web Worker
   (engine_worker.mjs) and the parity test (tests/rules_engine/phone_parity.mjs), so the test
   runs the code the phone runs. The engine is the server's own rules_engine package, unpacked
   from the zip the site serves (tournaments/services/offline.py); rules_engine.phone answers
   as the results API's preview does.

   A phone's first start costs Pyodide's own start-up (about 4 s of CPU: the interpreter, its
   standard library, then every module of the engine). The phone keeps a memory snapshot of
   that state (opts.makeSnapshot: the bytes come back as `snapshot`); a later start from the
   snapshot (opts.snapshot) skips it (about 0.6 s). The snapshot holds the interpreter's
   memory, not its files, so the engine's zip is unpacked again on every start. A snapshot that
   does not load (another Pyodide, damaged bytes) is dropped and the engine starts plainly. */
const ENGINE_DIR = "/home/pyodide/engine";

// every module of the engine imported before the snapshot (not __main__: that is the CLI)
const IMPORT_ALL = [
  "import importlib, pkgutil, sys",
  "sys.path.insert(0, " + JSON.stringify(ENGINE_DIR) + ")",
  "import rules_engine",
  "for _m in pkgutil.walk_packages(rules_engine.__path__, 'rules_engine.'):",
  "    if not _m.name.endswith('__main__'):",
  "        importlib.import_module(_m.name)",
].join("\n");

function answering(py) {
  const phone = py.pyimport("rules_engine.phone");
  return {
    // {status: 200, data: the engine's outcome} or {status: 400, data: {error, field}}
    preview: function (record, base, lang) {
      return JSON.parse(phone.answer_json(JSON.stringify(record), JSON.stringify(base), lang || "zh-hans"));
    },
    // many at once (the parity test): a list of [record, base] pairs, one answer each
    previewMany: function (pairs, lang) {
      return JSON.parse(phone.answer_many_json(JSON.stringify(pairs), lang || "zh-hans"));
    },
    // the rules desk's questions (check, classify, score), answered as the desk page does
    desk: function (fields, lang) {
      return JSON.parse(phone.desk_json(JSON.stringify(fields), lang || "zh-hans"));
    }
  };
}

async function fromSnapshot(loadPyodide, indexURL, zip, snapshot) {
  try {
    const py = await loadPyodide({indexURL: indexURL, _loadSnapshot: snapshot});
    py.unpackArchive(zip, "zip", {extractDir: ENGINE_DIR});
    const engine = answering(py);
    engine.preview({}, {game: "guandan"}, "en");  // it answers, or the snapshot is no good
    return engine;
  } catch (err) {
    return null;
  }
}

export async function startEngine(loadPyodide, indexURL, zipBytes, opts) {
  const options = opts || {};
  // a plain Uint8Array (Node gives a Buffer, which Pyodide does not take)
  const zip = new Uint8Array(zipBytes);
  if (options.snapshot) {
    const engine = await fromSnapshot(loadPyodide, indexURL, zip, new Uint8Array(options.snapshot));
    if (engine) {
      engine.fromSnapshot = true;
      return engine;
    }
  }
  const py = await loadPyodide({indexURL: indexURL, _makeSnapshot: !!options.makeSnapshot});
  py.unpackArchive(zip, "zip", {extractDir: ENGINE_DIR});
  py.runPython(IMPORT_ALL);
  const snapshot = options.makeSnapshot ? py.makeMemorySnapshot() : null;
  const engine = answering(py);
  engine.fromSnapshot = false;
  engine.snapshot = snapshot;
  engine.snapshotDropped = !!options.snapshot;
  return engine;
}
