// Start-up from the production build against development's starts: `hub start` to ready with
// HUB_DEVNET=0 against a devnet started here (as docs/operations.md runs it), PGlite, on a fresh data
// dir and then on the same dir again (existing), for three ways of running the same HEAD:
//   built   scripts/production-image.sh's copy: `node apps/cli/bin/hub.js start`, the compiled dist/
//   bundle  this checkout's `npm start` (the sources, from the start bundle cached in node_modules)
//   tsx     the same through tsx (the bundle's folder unwritable, as when it cannot be made)
// The built copy is START_BUILT_DIR (a folder where scripts/production-image.sh ran), else a fresh
// clone of HEAD built and pruned first (a minute or two, not measured). Runs alternate between the
// three, START_RUNS pairs each (default 3); START_LAUNCHES=built (or built,tsx) runs only those.
// START_BASE_BUILT_DIR adds `base`, another built copy (of the commit a change starts from), alternated
// with the others in the same run.
// `npm run bench -- production`.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createDevnet } from "@hub/devnet-app";
import { pino } from "pino";
import { type Launch, median, npmStartArguments, type StartRun, startOnce } from "./start.js";

const root = fileURLToPath(new URL("../", import.meta.url));

/** A built and pruned copy of HEAD: START_BUILT_DIR, or a fresh clone made here. */
function builtCopy(work: string): string {
  if (process.env.START_BUILT_DIR) return process.env.START_BUILT_DIR;
  const clone = join(work, "app");
  const head = execFileSync("git", ["rev-parse", "HEAD"], { cwd: root, encoding: "utf8" }).trim();
  execFileSync("git", ["clone", "--quiet", "--no-checkout", root, clone]);
  execFileSync("git", ["checkout", "--quiet", head], { cwd: clone });
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name) && name !== "NODE_OPTIONS"),
  );
  env.PATH = `${dirname(process.execPath)}:${env.PATH ?? ""}`;
  console.error("bench production: building a fresh clone (scripts/production-image.sh)");
  execFileSync("bash", ["scripts/production-image.sh"], { cwd: clone, env, stdio: ["ignore", 2, 2] });
  return clone;
}

export async function run(options: { runs?: number } = {}): Promise<object> {
  const runs = options.runs ?? Number(process.env.START_RUNS ?? 3);
  const work = mkdtempSync(join(tmpdir(), "hub-bench-production-"));
  const devnet = await createDevnet({
    port: 0,
    rpcPorts: [0, 0],
    dataDir: join(work, "devnet"),
    pollIntervalMs: 100,
    logger: pino({ level: "silent" }),
  });
  try {
    const built = builtCopy(work);
    const providersFile = join(work, "providers.json");
    writeFileSync(
      providersFile,
      JSON.stringify([
        { id: "oif", kind: "oif-aggregator", dialect: "oif-aggregator", baseUrl: `${devnet.url}/aggregator` },
        { id: "ext", kind: "external-aggregator", baseUrl: `${devnet.url}/external` },
      ]),
    );
    const withoutDevnet: NodeJS.ProcessEnv = {
      HUB_DEVNET: "0",
      HUB_CATALOG_FILE: devnet.files.catalogFile,
      HUB_PROVIDERS_FILE: providersFile,
      HUB_CHAIN_RPC_URLS: devnet.manifest.chains
        .map((chain) => `${chain.chainDomain}=${chain.rpcUrl}`)
        .join(","),
    };
    const development = npmStartArguments();
    const launches: Record<string, Launch> = {
      built: {
        args: development.filter((arg) => arg !== "--conditions=source"),
        cwd: built,
        env: { ...withoutDevnet, NODE_OPTIONS: undefined },
      },
      bundle: { args: development, cwd: root, env: withoutDevnet },
      tsx: {
        args: development,
        cwd: root,
        env: { ...withoutDevnet, HUB_START_BUNDLE_DIR: "/proc/hub-bench-no-bundle" },
      },
    };
    if (process.env.START_BASE_BUILT_DIR)
      launches.base = { ...(launches.built as Launch), cwd: process.env.START_BASE_BUILT_DIR };
    const only = process.env.START_LAUNCHES?.split(",");
    if (only) for (const name of Object.keys(launches)) if (!only.includes(name)) delete launches[name];
    const loadBefore = loadavg()[0];
    const results: Record<string, { fresh: StartRun[]; existing: StartRun[] }> = {};
    for (const name of Object.keys(launches)) results[name] = { fresh: [], existing: [] };
    for (let i = 0; i < runs; i++) {
      for (const [name, launch] of Object.entries(launches)) {
        const dataDir = mkdtempSync(join(tmpdir(), `hub-bench-${name}-`));
        try {
          results[name]!.fresh.push(await startOnce(dataDir, launch));
          results[name]!.existing.push(await startOnce(dataDir, launch));
        } finally {
          rmSync(dataDir, { recursive: true, force: true });
        }
      }
    }
    const summary = (list: StartRun[]) => ({
      readyMsMedian: median(list.map((r) => r.readyMs)),
      readyMs: list.map((r) => r.readyMs),
      sinceProcessStartMs: list.map((r) => r.sinceProcessStartMs),
      cpuMs: list.map((r) => r.cpuMs),
    });
    return {
      command: "hub start, HUB_DEVNET=0 against a devnet in the benchmark's process, PGlite, JSON logs",
      runs,
      ...Object.fromEntries(
        Object.entries(results).map(([name, { fresh, existing }]) => [
          name,
          {
            args: launches[name]!.args.join(" "),
            freshDataDir: summary(fresh),
            existingDataDir: summary(existing),
          },
        ]),
      ),
      machine: { cpus: cpus().length, loadAverage1mBefore: loadBefore, loadAverage1mAfter: loadavg()[0] },
    };
  } finally {
    await devnet.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(JSON.stringify(await run(), null, 2));
}
