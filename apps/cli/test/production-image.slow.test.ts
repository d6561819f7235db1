import assert from "node:assert/strict";
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import { promisify } from "node:util";
import type { CatalogChain } from "@hub/contract";
import { createDevnet, type Devnet } from "@hub/devnet-app";
import { pollUntil } from "@hub/test-support";
import { pino } from "pino";

// The production path on a fresh clone of this checkout's HEAD, as the Dockerfile's build stage runs it
// (scripts/production-image.sh: npm ci, npm run build, npm prune --omit=dev), then `npx hub start` from
// the pruned copy with HUB_DEVNET=0 against a devnet started from this (second) checkout, the gateway on
// GATEWAY_HOST=127.0.0.2 (docs/operations.md). Nothing of it runs through tsx: tsx, esbuild and
// TypeScript are not even installed there.

const root = new URL("../../../", import.meta.url).pathname;
const run = promisify(execFile);

/** The environment of the clone's processes: no `source` condition, no npm settings of this run. */
function cleanEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env))
    if (
      !/^npm_/i.test(name) &&
      name !== "NODE_OPTIONS" &&
      !name.startsWith("HUB_") &&
      !name.endsWith("_PORT")
    )
      env[name] = value;
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  // This test's node (and the npm beside it) first on PATH, so the clone runs on the same version.
  env.PATH = `${dirname(process.execPath)}:${env.PATH ?? ""}`;
  return env;
}

/** Every process whose ancestry reaches `pid` (its children, theirs, ...), with its command line. */
function descendants(pid: number): { pid: number; cmdline: string }[] {
  const parents = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // Ended meanwhile.
    }
  }
  const found: { pid: number; cmdline: string }[] = [];
  for (const [child] of parents) {
    let at: number | undefined = child;
    while (at !== undefined && at > 1 && at !== pid) at = parents.get(at);
    if (at !== pid) continue;
    try {
      found.push({
        pid: child,
        cmdline: readFileSync(`/proc/${child}/cmdline`, "utf8").split("\0").join(" "),
      });
    } catch {
      // Ended meanwhile.
    }
  }
  return found;
}

/** The status a URL answers with, or the connection error's code (ECONNREFUSED where nothing listens). */
function answerOf(url: string, headers: Record<string, string>): Promise<number | string> {
  return fetch(url, { headers }).then(
    (answer) => answer.status,
    (error: Error & { cause?: { code?: string } }) => error.cause?.code ?? error.message,
  );
}

describe("the production image: a fresh clone built, pruned and started without tsx", () => {
  let work: string;
  let clone: string;
  let devnet: Devnet;
  let hub: ChildProcess | undefined;
  let hubExited: Promise<number | null>;
  let output = "";
  let env: NodeJS.ProcessEnv;
  let baseUrl: string;
  let metricsUrl: string;
  /** The node process serving the stack (npx's grandchild). */
  let stackPid: number;

  before(async () => {
    work = await mkdtemp(join(tmpdir(), "hub-production-"));
    clone = join(work, "app");
    const { stdout: head } = await run("git", ["rev-parse", "HEAD"], { cwd: root });
    await run("git", ["clone", "--quiet", "--no-checkout", root, clone]);
    await run("git", ["checkout", "--quiet", head.trim()], { cwd: clone });
  });

  after(async () => {
    if (hub?.pid && hub.exitCode === null) process.kill(-hub.pid, "SIGKILL");
    await devnet?.stop();
    await rm(work, { recursive: true, force: true });
  });

  test("scripts/production-image.sh installs the lockfile, builds, and prunes tsx, esbuild and TypeScript", async () => {
    const started = performance.now();
    await run("bash", ["scripts/production-image.sh"], {
      cwd: clone,
      env: cleanEnvironment(),
      timeout: 15 * 60_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    console.log(`production-image.sh took ${Math.round(performance.now() - started)} ms`);
    for (const name of ["tsx", "esbuild", "typescript", "@biomejs/biome", "@foundry-rs/anvil"])
      assert.equal(existsSync(join(clone, "node_modules", name)), false, `${name} is not installed`);
    assert.ok(existsSync(join(clone, "apps/cli/dist/main.js")));
    assert.ok(existsSync(join(clone, "apps/cli/dist/main.js.map")));
    assert.ok(existsSync(join(clone, "apps/hub/dist/index.js")));
  });

  test("npx hub start with HUB_DEVNET=0 is ready, its gateway on 127.0.0.2 only, and no process runs through tsx", async () => {
    devnet = await createDevnet({
      port: 0,
      rpcPorts: [0, 0],
      dataDir: join(work, "devnet"),
      pollIntervalMs: 100,
      logger: pino({ level: "silent" }),
    });
    const providersFile = join(work, "providers.json");
    await writeFile(
      providersFile,
      JSON.stringify([
        { id: "oif", kind: "oif-aggregator", dialect: "oif-aggregator", baseUrl: `${devnet.url}/aggregator` },
        { id: "ext", kind: "external-aggregator", baseUrl: `${devnet.url}/external` },
      ]),
    );
    env = {
      ...cleanEnvironment(),
      HUB_DEVNET: "0",
      HUB_DATA_DIR: join(work, "data"),
      HUB_CATALOG_FILE: devnet.files.catalogFile,
      HUB_PROVIDERS_FILE: providersFile,
      HUB_CHAIN_RPC_URLS: devnet.manifest.chains
        .map((chain) => `${chain.chainDomain}=${chain.rpcUrl}`)
        .join(","),
      GATEWAY_HOST: "127.0.0.2",
      GATEWAY_PORT: "0",
      HUB_PORT: "0",
      DASHBOARD_PORT: "0",
      METRICS_PORT: "0",
      LOG_LEVEL: "info",
      LOG_FORMAT: "json",
    };
    // Its own process group: `npx` is npm, then a shell, then node; one signal reaches them all.
    const child = spawn("npx", ["hub", "start"], {
      cwd: clone,
      env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    hub = child;
    hubExited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const banner = await pollUntil(
      "the ready line",
      () => {
        if (child.exitCode !== null) throw new Error(`npx hub start exited ${child.exitCode}:\n${output}`);
        return output
          .split("\n")
          .filter((line) => line.startsWith("{"))
          .map((line) => JSON.parse(line) as { msg?: string; baseUrl?: string; metricsUrl?: string })
          .find((entry) => entry.msg?.startsWith("ready in "));
      },
      { timeoutMs: 120_000, intervalMs: 100 },
    );
    baseUrl = banner.baseUrl as string;
    metricsUrl = banner.metricsUrl as string;
    assert.match(baseUrl, /^http:\/\/127\.0\.0\.2:\d+\/v1$/);
    assert.equal((await fetch(metricsUrl.replace(/\/metrics$/, "/livez"))).status, 200);

    const processes = descendants(child.pid!);
    const node = processes.filter((entry) =>
      /^\S*node \S*(\/\.bin\/hub|apps\/cli\/bin\/hub\.js) start/.test(entry.cmdline),
    );
    assert.equal(node.length, 1, JSON.stringify(processes));
    stackPid = node[0]!.pid;
    for (const entry of processes)
      assert.doesNotMatch(entry.cmdline, /tsx/, `${entry.pid}: ${entry.cmdline}`);
  });

  test("a key from hub admin key create is answered on 127.0.0.2 (GET /v1/catalog, POST /v1/quote/preview) and not on 127.0.0.1", async () => {
    assert.ok(baseUrl, "the stack started");
    const hubAdmin = async (args: string[]) => {
      const { stdout } = await run("npx", ["hub", "admin", ...args, "--json"], {
        cwd: clone,
        env,
        timeout: 60_000,
      });
      // biome-ignore lint/suspicious/noExplicitAny: the CLI's output read as loose JSON
      return JSON.parse(stdout.trim().split("\n").at(-1)!) as Record<string, any>;
    };
    const org = await hubAdmin(["org", "create", "--name", "Production check"]);
    const orgId = org.organization.orgId as string;
    assert.match(orgId, /^org_/, JSON.stringify(org));
    const created = await hubAdmin(["key", "create", "--org", orgId]);
    const apiKey = created.apiKey.key as string;
    assert.match(apiKey, /^svc_sk_/, JSON.stringify(created));

    const catalog = await fetch(`${baseUrl}/catalog`, { headers: { "x-api-key": apiKey } });
    assert.equal(catalog.status, 200);
    const evm = ((await catalog.json()) as { data: { families: { evm: CatalogChain[] } } }).data.families.evm;
    assert.equal(evm.length, 2);

    const [origin, destination] = evm as [CatalogChain, CatalogChain];
    const usdc = (chain: CatalogChain) => chain.assets.find((asset) => asset.symbol === "USDC")!.key;
    const user = devnet.manifest.users[0]!;
    const preview = await fetch(`${baseUrl}/quote/preview`, {
      method: "POST",
      headers: { "x-api-key": apiKey, "x-service-subject": "prod-user", "content-type": "application/json" },
      body: JSON.stringify({
        sourceAsset: usdc(origin),
        destinationAsset: usdc(destination),
        amount: "1000000",
        recipient: user.address,
        sourceAccount: user.address,
      }),
    });
    const previewBody = (await preview.json()) as { success: boolean; data: { offers: unknown[] } };
    assert.equal(preview.status, 200, JSON.stringify(previewBody));
    assert.ok(previewBody.data.offers.length > 0, JSON.stringify(previewBody));

    // The port is free on 127.0.0.1 for any other process (the gateway bound 127.0.0.2 only), and a
    // test file running beside this one may get it: nothing there may answer this stack's key.
    const port = new URL(baseUrl).port;
    const onLoopback = await answerOf(`http://127.0.0.1:${port}/v1/catalog`, {
      "x-api-key": apiKey,
      "x-service-subject": "prod-user",
    });
    assert.notEqual(onLoopback, 200, "127.0.0.1 does not answer the gateway's key on its port");

    // SIGTERM to the stack (as `docker stop` sends its entry point): it stops, and npx exits with its 0.
    process.kill(stackPid, "SIGTERM");
    assert.equal(await hubExited, 0, output);
  });
});
