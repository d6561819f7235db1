// `npm run bench:summary`: the headline figures of the newest kept run of each benchmark
// (bench/results/*.json, written by `npm run bench`), one line each, with the run's commit and load.
// `-- --all` prints every kept run instead of the newest, oldest first.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

type Json = Record<string, unknown>;

/**
 * The figures each benchmark's table row shows; a path may end in a ratio of two paths (`a / b`). A
 * figure `x.y` with a `x.goals.y` beside it is printed with that goal.
 */
const headlines: Record<string, readonly string[]> = {
  quotes: [
    "byConcurrency.1.overheadP50Ms",
    "byConcurrency.64.overheadP99Ms",
    "byConcurrency.64.hubCpuMsPerRound",
    "byConcurrency.64.quotesPerSecond",
    "floorRound.hubCpuMsPerRound",
    "ratios.hubCpuAt64ToFloor",
    "ratios.p99At64ToFifoBound",
  ],
  gateway: [
    "verdict.throughputRatio",
    "httpTransportVerdict.inOwnProcessRatioToNginx.gateway",
    "httpTransportVerdict.inOwnProcessRatioToNginx.nodeHttpFloor",
    "httpTransportVerdict.inOwnProcessRatioToNginx.gateway / httpTransportVerdict.inOwnProcessRatioToNginx.nodeHttpFloor",
  ],
  status: ["cachedReads.readsPerSecond", "cachedReads.ratioToBare", "cachedReads.p99Ms"],
  openflow: ["firstRegistrations.perSecond", "firstRegistrations.processCpuMsPerRequest", "ratioToAnchor"],
  start: ["freshDataDir.readyMsMedian", "existingDataDir.readyMsMedian"],
  production: [
    "pglite.built.existingDataDir.readyMsMedian",
    "pglite.anchor.msMedian",
    "pglite.ratioToAnchor",
    "postgres.built.existingDataDir.readyMsMedian",
    "postgres.anchor.msMedian",
    "postgres.ratioToAnchor",
  ],
  memory: ["idleMb.rss", "afterFirst1000AndGcMb.rss", "afterQuotesAndGcMb.rss", "ratio"],
};

function at(value: unknown, path: string): unknown {
  let current = value;
  for (const key of path.split(".")) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Json)[key];
  }
  return current;
}

function figure(result: unknown, path: string): string {
  const [top, bottom] = path.split(" / ");
  const a = at(result, top ?? "");
  if (bottom === undefined) {
    const goal = at(result, path.replace(/\.([^.]+)$/, ".goals.$1"));
    return `${typeof a === "number" ? String(a) : "-"}${typeof goal === "string" ? ` (goal ${goal})` : ""}`;
  }
  const b = at(result, bottom);
  return typeof a === "number" && typeof b === "number" && b !== 0 ? (a / b).toFixed(2) : "-";
}

function numericLeaves(result: unknown): string[] {
  if (result === null || typeof result !== "object") return [];
  return Object.entries(result as Json)
    .filter(([, v]) => typeof v === "number")
    .slice(0, 6)
    .map(([k]) => k);
}

const dir = new URL("../bench/results/", import.meta.url).pathname;
const files = readdirSync(dir, { withFileTypes: true })
  .filter((entry) => entry.isFile() && entry.name.endsWith(".json"))
  .map((entry) => entry.name)
  .sort();
const all = process.argv.includes("--all");
const rows = new Map<string, string>();
for (const name of files) {
  const run = JSON.parse(readFileSync(join(dir, name), "utf8")) as Json;
  const meta = (run.run ?? {}) as Json;
  const load = Array.isArray(meta.loadAverageBefore) ? meta.loadAverageBefore[0] : "?";
  for (const [bench, result] of Object.entries(run)) {
    if (bench === "node" || bench === "run") continue;
    const paths = headlines[bench] ?? numericLeaves(result);
    const line = `${bench} @${String(meta.commit ?? "?")} load ${String(load)} (${name}): ${paths
      .map((path) => `${path} = ${figure(result, path)}`)
      .join("; ")}`;
    rows.set(all ? `${name}/${bench}` : bench, line);
  }
}
if (rows.size === 0) console.log("no kept runs under bench/results/ yet: npm run bench -- <name>");
for (const line of rows.values()) console.log(line);
