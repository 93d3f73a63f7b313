// The parity test's phone side (tests/rules_engine/test_phone_parity.py): the rules engine the
// table phone runs, started by the phone's own start-up (static/js/engine_core.mjs) from the
// zip the site serves (from its start-up snapshot, as a phone's later starts do), answering
// each [record, base] pair of a JSON file.
// Usage: node phone_parity.mjs PYODIDE_DIR ENGINE_ZIP PAIRS_JSON OUT_JSON LANG
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import path from "node:path";

const [pyodideDir, zipPath, pairsPath, outPath, lang] = process.argv.slice(2);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..", "..");
const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
const { startEngine } = await import(pathToFileURL(path.join(root, "static/js/engine_core.mjs")).href);

// as a phone does: its first start keeps a snapshot, and the answers come from an engine
// started from that snapshot (the phone's every later start, offline included)
const zip = readFileSync(zipPath);
const first = await startEngine(loadPyodide, pyodideDir + "/", zip, {makeSnapshot: true});
const started = Date.now();
const engine = await startEngine(loadPyodide, pyodideDir + "/", zip, {snapshot: first.snapshot});
const startMs = Date.now() - started;
if (!engine.fromSnapshot) { throw new Error("the engine did not start from its snapshot"); }
const pairs = JSON.parse(readFileSync(pairsPath, "utf8"));
const t0 = Date.now();
const answers = engine.previewMany(pairs, lang);
writeFileSync(outPath, JSON.stringify({start_ms: startMs, answer_ms: Date.now() - t0, answers: answers}));
