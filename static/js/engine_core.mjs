/* The rules engine in Pyodide: one start-up shared by the table phone's Web Worker
   (engine_worker.mjs) and the parity test (tests/rules_engine/phone_parity.mjs), so the test
   runs the code the phone runs. The engine is the server's own rules_engine package, unpacked
   from the zip the site serves (tournaments/services/offline.py); rules_engine.phone answers
   as the results API's preview does. */
export async function startEngine(loadPyodide, indexURL, zipBytes) {
  const py = await loadPyodide({indexURL: indexURL});
  // a plain Uint8Array (Node gives a Buffer, which Pyodide does not take)
  py.unpackArchive(new Uint8Array(zipBytes), "zip", {extractDir: "/home/pyodide/engine"});
  py.runPython("import sys; sys.path.insert(0, '/home/pyodide/engine')");
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
