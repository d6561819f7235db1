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
// with the others in the same run; START_OTHER_BUILT_DIRS=name=dir,... adds more, each under its name.
// Stores: PGlite under the data dir, and with DATABASE_URL set PostgreSQL as well (the production
// configuration): each run a new database on that server, fresh then existing, dropped after it.
// START_STORES=pglite (or postgres) runs only that one.
// The anchor (issue 30's goal: start to ready on an existing data dir at most 2x it) is a process that
// does what the built start does before it builds anything, and nothing more: the same node flags, the
// compile cache the start left in the data dir (if it made one), the third-party packages hub.js
// preloads, the start's own modules as the start loads them (the start bundle when the build made
// one; else dist/main.js's imports and the start command's graph), the stack's modules
// (importStackModules, the list the start imports) and the same store opened on the same data dir (or
// database) and closed; spawn to exit. Each run's anchor follows that run's starts, in every built copy
// that has the anchor's entry points.
// BENCH_CPU_PROFILE_DIR=<dir> writes a .cpuprofile of each built start there.
// `npm run bench -- production`.
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createDevnet } from "@hub/devnet-app";
import { createPostgresClient } from "@hub/store";
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

/** What the built start does before it starts any listener: imports, then the store opened (see above). */
const anchorSource = `
import { existsSync, readFileSync } from "node:fs";
import { enableCompileCache } from "node:module";
import { pathToFileURL } from "node:url";
const compileCache = \`\${process.env.HUB_DATA_DIR}/compile-cache\`;
if (existsSync(compileCache)) enableCompileCache(compileCache);
const at = (path) => pathToFileURL(\`\${process.cwd()}/\${path}\`).href;
const { preloadPackages } = await import(at("apps/cli/bin/preload-packages.js"));
await preloadPackages(false);
process.setSourceMapsEnabled(true);
const bundle = at("apps/cli/dist/start-bundle/start.js");
let modules;
if (existsSync(new URL(bundle))) modules = await import(bundle);
else {
  const main = at("apps/cli/dist/main.js");
  const imports = [...readFileSync(new URL(main), "utf8").matchAll(/^import .* from "(.+)";$/gm)];
  await Promise.all(imports.map(([, specifier]) => import(new URL(specifier, main).href)));
  await import(at("apps/cli/dist/start-command.js"));
  const [{ importStackModules }, { openStore }] = await Promise.all([
    import(at("apps/cli/dist/start-foundations.js")),
    import("@hub/store"),
  ]);
  modules = { importStackModules, openStore };
}
const databaseUrl = process.env.DATABASE_URL;
const [store] = await Promise.all([
  modules.openStore({ dataDir: process.env.HUB_DATA_DIR, ...(databaseUrl ? { databaseUrl } : {}) }),
  modules.importStackModules(),
]);
await store.close();
process.exit(0);
`;

/** Spawns the anchor in the built copy on dataDir (and databaseUrl): milliseconds from spawn to exit. */
async function anchorOnce(
  cwd: string,
  flags: string[],
  dataDir: string,
  databaseUrl?: string,
): Promise<number> {
  const env: NodeJS.ProcessEnv = { ...process.env, HUB_DATA_DIR: dataDir };
  delete env.NODE_OPTIONS;
  delete env.REDIS_URL;
  delete env.DATABASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  const started = performance.now();
  const child = spawn(process.execPath, [...flags, "--input-type=module", "-e", anchorSource], {
    cwd,
    env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  const ms = Math.round(performance.now() - started);
  if (code !== 0) throw new Error(`the anchor exited ${code}: ${stderr}`);
  return ms;
}

/** A new, empty database on DATABASE_URL's server: its URL and its drop. */
async function freshDatabase(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `hub_bench_start_${randomBytes(6).toString("hex")}`;
  const admin = createPostgresClient({ connectionString: serverUrl, maxConnections: 1 });
  await admin.exec(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    async drop() {
      try {
        await admin.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await admin.close();
      }
    },
  };
}

type StoreName = "pglite" | "postgres";

export async function run(options: { runs?: number } = {}): Promise<object> {
  const runs = options.runs ?? Number(process.env.START_RUNS ?? 3);
  const serverUrl = process.env.DATABASE_URL;
  const stores = (process.env.START_STORES?.split(",") ?? ["pglite", "postgres"]).filter(
    (store): store is StoreName => store === "pglite" || (store === "postgres" && serverUrl !== undefined),
  );
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
    const builtArgs = development.filter((arg) => arg !== "--conditions=source");
    const nodeFlags = builtArgs.filter((arg) => arg.startsWith("--"));
    const profileDir = process.env.BENCH_CPU_PROFILE_DIR;
    const profileFlags = profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [];
    const launches: Record<string, Launch> = {
      built: {
        args: [...profileFlags, ...builtArgs],
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
    const copies = new Set(["built", "base"]);
    for (const entry of process.env.START_OTHER_BUILT_DIRS?.split(",") ?? []) {
      const [name = "", dir = ""] = entry.split("=");
      launches[name] = { ...(launches.built as Launch), cwd: dir };
      copies.add(name);
    }
    const only = process.env.START_LAUNCHES?.split(",");
    if (only) for (const name of Object.keys(launches)) if (!only.includes(name)) delete launches[name];
    const loadBefore = loadavg()[0];
    // The anchor runs in each built copy that has its entry points (a base before them has none).
    const anchored = (name: string) =>
      copies.has(name) &&
      existsSync(join((launches[name] as Launch).cwd, "apps/cli/bin/preload-packages.js"));
    type Started = { fresh: StartRun[]; existing: StartRun[]; anchor: number[] };
    const results = {} as Record<StoreName, Record<string, Started>>;
    for (const store of stores) {
      results[store] = {};
      for (const name of Object.keys(launches))
        results[store][name] = { fresh: [], existing: [], anchor: [] };
    }
    for (let i = 0; i < runs; i++) {
      for (const store of stores) {
        for (const [name, launch] of Object.entries(launches)) {
          const dataDir = mkdtempSync(join(tmpdir(), `hub-bench-${name}-`));
          const database = store === "postgres" && serverUrl ? await freshDatabase(serverUrl) : undefined;
          const onStore = database
            ? { ...launch, env: { ...launch.env, DATABASE_URL: database.url } }
            : launch;
          try {
            const list = results[store][name] as Started;
            list.fresh.push(await startOnce(dataDir, onStore));
            list.existing.push(await startOnce(dataDir, onStore));
            if (anchored(name))
              list.anchor.push(await anchorOnce(launch.cwd, nodeFlags, dataDir, database?.url));
          } finally {
            rmSync(dataDir, { recursive: true, force: true });
            await database?.drop();
          }
        }
      }
    }
    const summary = (list: StartRun[]) => ({
      readyMsMedian: median(list.map((r) => r.readyMs)),
      readyMs: list.map((r) => r.readyMs),
      sinceProcessStartMs: list.map((r) => r.sinceProcessStartMs),
      cpuMs: list.map((r) => r.cpuMs),
      phasesOfMedianRun: list.find((r) => r.readyMs === median(list.map((x) => x.readyMs)))?.phases,
    });
    const ofLaunch = (name: string, { fresh, existing, anchor }: Started) => {
      const ready = existing.map((r) => r.readyMs);
      return {
        args: (launches[name] as Launch).args.join(" "),
        freshDataDir: summary(fresh),
        existingDataDir: summary(existing),
        ...(anchor.length > 0
          ? {
              anchor: { msMedian: median(anchor), ms: anchor },
              ratioToAnchor: Number((median(ready) / median(anchor)).toFixed(2)),
              ratioToAnchorPerRun: ready.map((ms, i) => Number((ms / (anchor[i] ?? Number.NaN)).toFixed(2))),
            }
          : {}),
      };
    };
    const ofStore = (started: Record<string, Started>) => {
      const launched = Object.fromEntries(
        Object.entries(started).map(([name, result]) => [name, ofLaunch(name, result)]),
      );
      const built = launched.built;
      return {
        ...(built && "anchor" in built ? { anchor: built.anchor, ratioToAnchor: built.ratioToAnchor } : {}),
        ...launched,
      };
    };
    return {
      command: "hub start, HUB_DEVNET=0 against a devnet in the benchmark's process, JSON logs",
      runs,
      goal: "ratioToAnchor (built, existing data dir, against the anchor) <= 2",
      anchor: "the built copy's imports and store open, nothing else (bench/production.ts's header)",
      ...Object.fromEntries(Object.entries(results).map(([store, result]) => [store, ofStore(result)])),
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
