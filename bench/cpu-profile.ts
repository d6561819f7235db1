// CPU profiles of a benchmark's measured phase only: with BENCH_CPU_PROFILE_DIR set, `profiled(label, work)`
// records this process's main thread while `work` runs and writes <dir>/<label>.cpuprofile (Chrome's
// format; the folder is made when missing); `node --import tsx bench/cpu-profile.ts <file>` prints the top
// functions by self and by inclusive time; `--minus <floor file>` their self time above the floor round's.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/** Runs `work`, profiled when BENCH_CPU_PROFILE_DIR is set. */
export async function profiled<T>(label: string, work: () => Promise<T>): Promise<T> {
  const dir = process.env.BENCH_CPU_PROFILE_DIR;
  if (!dir) return work();
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 200 });
  await session.post("Profiler.start");
  try {
    return await work();
  } finally {
    const { profile } = await session.post("Profiler.stop");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${label}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Self and inclusive milliseconds per function (name and file), the idle and GC nodes included. */
export function summarize(profile: Profile, top = 25) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? profile.timeDeltas[i] ?? 0));
  });
  const name = (node: ProfileNode) => {
    const file = node.callFrame.url
      .replace(/^.*\/node_modules\//, "")
      .replace(/^.*\/(apps|packages)\//, "$1/");
    return `${node.callFrame.functionName || "(anonymous)"} ${file}:${node.callFrame.lineNumber + 1}`;
  };
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let totalUs = 0;
  for (const [id, us] of selfUs) {
    totalUs += us;
    const leaf = byId.get(id)!;
    self.set(name(leaf), (self.get(name(leaf)) ?? 0) + us);
    // A function counts once per sample however often it recurs in the stack.
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const key = name(byId.get(at)!);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + us);
    }
  }
  const rows = (map: Map<string, number>) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([fn, us]) => ({ fn, ms: Math.round(us / 100) / 10, share: Number((us / totalUs).toFixed(3)) }));
  return { totalMs: Math.round(totalUs / 1000), self: rows(self), inclusive: rows(inclusive) };
}

/**
 * Self milliseconds per function of `profile` less those of `floor` (a profile of the same number of
 * rounds of the floor round): what the round spends above its floor, function by function, idle left out.
 */
export function aboveFloor(profile: Profile, floor: Profile, top = 25) {
  const floorMs = new Map(summarize(floor, Number.POSITIVE_INFINITY).self.map((row) => [row.fn, row.ms]));
  const { totalMs, self } = summarize(profile, Number.POSITIVE_INFINITY);
  const rows = self
    .filter((row) => !row.fn.startsWith("(idle)"))
    .map((row) => ({ fn: row.fn, ms: Math.round((row.ms - (floorMs.get(row.fn) ?? 0)) * 10) / 10 }))
    .sort((a, b) => b.ms - a.ms);
  const floorTotalMs = summarize(floor, 0).totalMs;
  return { totalMs, floorTotalMs, aboveFloor: rows.slice(0, top) };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [file, ...rest] = process.argv.slice(2);
  const minus = rest.indexOf("--minus");
  const floorFile = minus === -1 ? undefined : rest[minus + 1];
  const top = Number(rest.find((_, i) => minus === -1 || (i !== minus && i !== minus + 1)) ?? 25);
  if (!file || (minus !== -1 && !floorFile)) {
    throw new Error(
      "usage: node --import tsx bench/cpu-profile.ts <file.cpuprofile> [top] [--minus <floor.cpuprofile>]",
    );
  }
  const read = (path: string) => JSON.parse(readFileSync(path, "utf8")) as Profile;
  const summary = floorFile ? aboveFloor(read(file), read(floorFile), top) : summarize(read(file), top);
  console.log(JSON.stringify(summary, null, 1));
}
