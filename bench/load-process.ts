// Runs the load generator (bench/gateway-load.ts, autocannon) in its own process against a server in this
// one, and divides this process's CPU time over the load by the requests served.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { profiled } from "./cpu-profile.js";

const loadScript = fileURLToPath(new URL("./gateway-load.ts", import.meta.url));

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  requests: number;
  warmupRequests: number;
  /** Server CPU time (user + system) per request, warm-up included: the cost under any contention. */
  serverCpuMicrosPerRequest?: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

export interface LoadSettings {
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
}

/**
 * Loads `url` (or, with `paths`, each path of its origin in turn) and reports the generator's figures;
 * with BENCH_CPU_PROFILE_DIR set, this process is profiled meanwhile (<dir>/<label>.cpuprofile).
 */
export function load(
  url: string,
  headers: Record<string, string>,
  settings: LoadSettings,
  extra: { overallRate?: number; paths?: string[]; label?: string } = {},
): Promise<LoadResult> {
  const { label = "load", ...options } = extra;
  return profiled(label, () => generate(url, headers, settings, options));
}

function generate(
  url: string,
  headers: Record<string, string>,
  settings: LoadSettings,
  extra: { overallRate?: number; paths?: string[] },
): Promise<LoadResult> {
  const cpuBefore = process.cpuUsage();
  return new Promise((resolve, reject) => {
    // The options go through stdin: a list of paths can pass the kernel's 128 KiB limit on one argument.
    const child = spawn(process.execPath, ["--import", "tsx", loadScript], {
      stdio: ["pipe", "pipe", "inherit"],
    });
    child.stdin.end(JSON.stringify({ url, headers, ...settings, ...extra }));
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code !== 0) reject(new Error(`load generator exited with ${code}`));
      else {
        const result = JSON.parse(out.trim().split("\n").pop() as string) as LoadResult;
        const cpu = process.cpuUsage(cpuBefore);
        const served = result.requests + result.warmupRequests;
        result.serverCpuMicrosPerRequest = Math.round((cpu.user + cpu.system) / Math.max(1, served));
        resolve(result);
      }
    });
  });
}
