// Start-up benchmark: `hub start` (what `npm start` runs, its node arguments read from package.json,
// spawned straight from node so npm's own start-up is not counted) to ready, on a fresh data dir and
// then on the same dir again (existing), with the devnet and the embedded PGlite, every listener on a
// free port and JSON logs. "Ready" is the "ready in" log line, written once dev.json is written and
// every listener answers. Each run also reports the process's phases (the "start-up phases" line).
// The caches a start uses (PGlite templates and anvil states in ~/.cache/intent-hub) are warm after
// the first run: a fresh data dir is a fresh database and fresh chains, not a fresh clone.
// `npm run bench -- start` (START_RUNS pairs, default 3), or standalone: `node --import tsx bench/start.ts`.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));

/** `npm start`'s command without its leading `node`: its node flags, the bin and `start`. */
export function npmStartArguments(): string[] {
  const { scripts } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
    scripts: { start: string };
  };
  const [command, ...rest] = scripts.start.split(/\s+/);
  if (command !== "node") throw new Error(`npm start does not run node: ${scripts.start}`);
  return rest;
}

export interface StartRun {
  /** Spawn to the "ready in" line, as the parent sees it. */
  readyMs: number;
  /** The process's own clock at ready: module loading plus the stack's phases. */
  sinceProcessStartMs: number;
  /** CPU time (user and system, every thread of the process, not anvil's) up to ready. */
  cpuMs: number;
  /** Milliseconds from the start of the stack to the end of each phase. */
  phases: Record<string, number>;
}

/** How to start the stack: node's arguments, its folder and variables over the benchmark's own. */
export interface Launch {
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** Spawns `hub start` on dataDir, waits for ready, stops it with SIGTERM and waits for its exit. */
export async function startOnce(
  dataDir: string,
  launch: Launch = { args: npmStartArguments(), cwd: root, env: {} },
): Promise<StartRun> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HUB_DATA_DIR: dataDir,
    GATEWAY_PORT: "0",
    DASHBOARD_PORT: "0",
    HUB_PORT: "0",
    METRICS_PORT: "0",
    DEVNET_PORT: "0",
    DEVNET_RPC_PORTS: "0,0",
    DEVNET_SOLANA_RPC_PORT: "0",
    LOG_LEVEL: "info",
    LOG_FORMAT: "json",
  };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  for (const [name, value] of Object.entries(launch.env))
    if (value === undefined) delete env[name];
    else env[name] = value;
  const started = performance.now();
  const child = spawn(process.execPath, launch.args, {
    cwd: launch.cwd,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: { msg?: string }[] = [];
  let pending = "";
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    // The ready line, then the phases line.
    let readyMs = 0;
    const phasesLine = await new Promise<StartRun>((resolve, reject) => {
      child.stdout.on("data", (chunk) => {
        const parts = (pending + chunk).split("\n");
        pending = parts.pop() ?? "";
        for (const part of parts) {
          const line = JSON.parse(part) as { msg?: string };
          lines.push(line);
          if (line.msg?.startsWith("ready in ")) readyMs = performance.now() - started;
          if (line.msg === "start-up phases") resolve(line as unknown as StartRun);
        }
      });
      child.once("exit", (code) =>
        reject(new Error(`hub start exited ${code}: ${stderr}${JSON.stringify(lines)}`)),
      );
    });
    const { phases, sinceProcessStartMs, cpuMs } = phasesLine;
    return { readyMs: Math.round(readyMs), sinceProcessStartMs, cpuMs, phases };
  } finally {
    child.kill("SIGTERM");
    await exited;
  }
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

export async function run(options: { runs?: number } = {}): Promise<object> {
  const runs = options.runs ?? Number(process.env.START_RUNS ?? 3);
  const loadBefore = loadavg()[0];
  const fresh: StartRun[] = [];
  const existing: StartRun[] = [];
  for (let i = 0; i < runs; i++) {
    const dataDir = mkdtempSync(join(tmpdir(), "hub-bench-start-"));
    try {
      fresh.push(await startOnce(dataDir));
      existing.push(await startOnce(dataDir));
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const summary = (list: StartRun[]) => ({
    readyMsMedian: median(list.map((r) => r.readyMs)),
    readyMs: list.map((r) => r.readyMs),
    sinceProcessStartMs: list.map((r) => r.sinceProcessStartMs),
    cpuMs: list.map((r) => r.cpuMs),
    phasesOfMedianRun: list.find((r) => r.readyMs === median(list.map((x) => x.readyMs)))?.phases,
  });
  return {
    command: `node ${npmStartArguments().join(" ")} (npm start without npm), PGlite, devnet on`,
    runs,
    freshDataDir: summary(fresh),
    existingDataDir: summary(existing),
    machine: { cpus: cpus().length, loadAverage1mBefore: loadBefore, loadAverage1mAfter: loadavg()[0] },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(JSON.stringify(await run(), null, 2));
}
