// bench/phone_engine.py's Node side: the phone's engine started plainly (a phone's first start)
// and from its snapshot (every later start, offline included), each in a fresh process.
// Usage: node phone_engine_start.mjs PYODIDE_DIR ENGINE_ZIP SNAPSHOT_FILE (plain|make|snapshot)
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import path from "node:path";

const [pyodideDir, zipPath, snapshotPath, mode] = process.argv.slice(2);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const t0 = Date.now();
const cpu0 = process.cpuUsage();
const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
const { startEngine } = await import(pathToFileURL(path.join(root, "static/js/engine_core.mjs")).href);
const zip = readFileSync(zipPath);
const opts = mode === "make" ? {makeSnapshot: true}
  : mode === "snapshot" ? {snapshot: readFileSync(snapshotPath)} : {};
const engine = await startEngine(loadPyodide, pyodideDir + "/", zip, opts);
const answer = engine.preview({deals: [{finish: ["E", "W", "S", "N"]}]},
                              {game: "guandan", preset: "guandan-suzhou-2016"}, "zh-hans");
const cpu = process.cpuUsage(cpu0);
if (engine.snapshot) { writeFileSync(snapshotPath, engine.snapshot); }
console.log(JSON.stringify({
  ms: Date.now() - t0, cpu_ms: Math.round((cpu.user + cpu.system) / 1000),
  from_snapshot: engine.fromSnapshot, status: answer.status,
  snapshot_bytes: engine.snapshot ? engine.snapshot.length : null,
}));
