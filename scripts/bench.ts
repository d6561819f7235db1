// `npm run bench -- <name>...`: runs each named benchmark (bench/<name>.ts exporting `run()`) in turn,
// prints one JSON object with every result and keeps it under bench/results/ (`--no-save` does not).
// With no name it lists the benchmarks. `npm run bench:summary` prints the newest figures.
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";

const dir = new URL("../bench/", import.meta.url).pathname;
// A dash in a file name marks a module the benchmarks share, except for the benchmarks named here.
const dashedBenchmarks = ["project-pool"];
const available = readdirSync(dir)
  .filter((f) => f.endsWith(".ts") && (!f.includes("-") || dashedBenchmarks.includes(f.slice(0, -3))))
  .map((f) => f.slice(0, -3))
  .sort();
const names = process.argv.slice(2).filter((a) => !a.startsWith("--"));
if (names.length === 0) {
  console.log(`usage: npm run bench -- <name>...\navailable: ${available.join(", ")}`);
  process.exit(available.length === 0 ? 1 : 0);
}
const unknown = names.filter((n) => !available.includes(n));
if (unknown.length > 0) {
  console.error(`unknown benchmark: ${unknown.join(", ")} (available: ${available.join(", ")})`);
  process.exit(2);
}
// The processes the benchmarks start (the devnet, canned providers, load clients) resolve the
// workspace's TypeScript sources as this one does: the `source` condition reaches them through
// NODE_OPTIONS, as in scripts/run-tests.ts (the production benchmark clears it for the built copy).
if (!/--conditions=source\b/.test(process.env.NODE_OPTIONS ?? ""))
  process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ""} --conditions=source`.trim();
// The hub runs in this process in most benchmarks: `npm run bench` gives node the flags `npm start` does.
const startedAt = new Date();
const results: Record<string, unknown> = {
  node: { version: process.version, flags: process.execArgv, NODE_OPTIONS: process.env.NODE_OPTIONS ?? "" },
  run: { startedAt: startedAt.toISOString(), commit: currentCommit(), loadAverageBefore: roundedLoad() },
};
for (const name of names) {
  console.error(`bench ${name}: running`);
  const { run } = (await import(join(dir, `${name}.ts`))) as { run: () => Promise<unknown> };
  results[name] = await run();
}
Object.assign(results.run as object, { loadAverageAfter: roundedLoad() });
const text = JSON.stringify(results, null, 2);
console.log(text);
if (!process.argv.includes("--no-save")) {
  const resultsDir = new URL("../bench/results/", import.meta.url).pathname;
  mkdirSync(resultsDir, { recursive: true });
  const stamp = startedAt.toISOString().replace(/[:.]/g, "-");
  const file = join(resultsDir, `${stamp}_${names.join("+")}.json`);
  writeFileSync(file, `${text}\n`);
  console.error(`bench: results kept in ${file}`);
}
process.exit(0);

function roundedLoad(): number[] {
  return loadavg().map((n) => Number(n.toFixed(2)));
}

function currentCommit(): string | null {
  try {
    return execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
  } catch {
    return null;
  }
}
