import assert from "node:assert/strict";
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type CatalogChain, openForAckSchema, type QuoteWinner, quoteWinnerSchema } from "@hub/contract";
import { createTestDatabases } from "@hub/store";
import { pollUntil } from "@hub/test-support";
import { signWinner } from "./submission-stack.js";
import { startUpstreamProxy } from "./submission-upstream-proxy.js";
import { startHubTestDevnet } from "./upstream-devnet.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
after(() => databases.dispose());

const SUBMISSIONS = 50;

interface DevFile {
  baseUrl: string;
  apiKey: string | null;
  dashboardSignInUrl: string | null;
}

/** Where the calls go and with which key: without the devnet, start makes no organization. */
interface Caller {
  baseUrl: string;
  apiKey: string;
}

/** `hub admin` against the running stack's data: a new organization and its secret key. */
async function createKey(env: NodeJS.ProcessEnv): Promise<string> {
  const admin = async (...args: string[]) => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "apps/cli/src/main.ts", "admin", ...args, "--json"],
      { cwd: root, env },
    );
    return JSON.parse(stdout);
  };
  const { organization } = await admin("org", "create", "--name", "crash");
  const { apiKey } = await admin("key", "create", "--org", organization.orgId);
  return apiKey.key;
}

interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: envelopes are read loosely, then parsed by the contract schemas
  body: any;
}

/** `hub start` against the external devnet: its own process, so SIGKILL is a real crash. */
function startHub(env: NodeJS.ProcessEnv, dataDir: string, previous: string | undefined) {
  const child: ChildProcess = spawn(process.execPath, ["apps/cli/bin/hub.js", "start"], {
    cwd: root,
    env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk) => {
    stderr += chunk;
  });
  const ready = pollUntil(
    "hub start writes dev.json",
    () => {
      if (child.exitCode !== null) throw new Error(`hub start exited ${child.exitCode}: ${stderr}`);
      try {
        const dev = JSON.parse(readFileSync(join(dataDir, "dev.json"), "utf8")) as DevFile;
        return dev.baseUrl !== previous ? dev : undefined;
      } catch {
        return undefined;
      }
    },
    { timeoutMs: 60_000, intervalMs: 100 },
  );
  return { child, ready };
}

async function api(dev: Caller, method: string, path: string, json?: unknown): Promise<Answer> {
  const response = await fetch(`${dev.baseUrl}${path}`, {
    method,
    headers: {
      "x-api-key": dev.apiKey,
      "x-service-subject": "crash-user",
      ...(json === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
  return { status: response.status, body: await response.json() };
}

for (const { driver, skip } of databases.drivers) {
  describe(`a hub killed in the middle of ${SUBMISSIONS} submissions (${driver})`, { skip }, () => {
    test("after restart every re-post answers the ack or EIN0052, each quote was forwarded at most once, and no ack is lost", async (t) => {
      const devnet = await startHubTestDevnet();
      t.after(() => devnet.stop());
      const proxy = await startUpstreamProxy(`${devnet.url}/aggregator`);
      t.after(() => proxy.close());
      const target = await databases.prepareDataDir(driver);
      t.after(() => target.dispose());
      const providersFile = join(target.dataDir, "providers.json");
      writeFileSync(
        providersFile,
        JSON.stringify([{ id: "devnet", kind: "oif-aggregator", baseUrl: proxy.url, timeoutMs: 8000 }]),
      );
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        HUB_DEVNET: "0",
        HUB_CATALOG_FILE: devnet.files.catalogFile,
        HUB_PROVIDERS_FILE: providersFile,
        HUB_DATA_DIR: target.dataDir,
        GATEWAY_PORT: "0",
        HUB_PORT: "0",
        DASHBOARD_PORT: "0",
        METRICS_PORT: "0",
        HUB_TENANT_RPS: "1000",
        HUB_TENANT_BURST: "1000",
        LOG_LEVEL: "warn",
      };
      if (target.databaseUrl) env.DATABASE_URL = target.databaseUrl;
      else delete env.DATABASE_URL;

      const first = startHub(env, target.dataDir, undefined);
      t.after(() => {
        first.child.kill("SIGKILL");
      });
      const started = await first.ready;
      assert.equal(started.apiKey, null, "a start without the devnet makes no development organization");
      assert.equal(started.dashboardSignInUrl, null, "nor a sign-in link");
      const dev: Caller = { baseUrl: started.baseUrl, apiKey: await createKey(env) };

      const [origin, destination] = devnet.catalog.families.evm as [CatalogChain, CatalogChain];
      const usdc = (chain: CatalogChain) => chain.assets.find((asset) => asset.symbol === "USDC")!.key;
      const orders: { winner: QuoteWinner; body: Record<string, string> }[] = [];
      for (let batch = 0; batch < SUBMISSIONS; batch += 10) {
        await Promise.all(
          Array.from({ length: 10 }, async (_, i) => {
            const user = devnet.manifest.users[(batch + i) % devnet.manifest.users.length]!;
            const quoted = await api(dev, "POST", "/quote", {
              sourceAsset: usdc(origin),
              destinationAsset: usdc(destination),
              amount: String(1_000_000 + batch + i),
              recipient: user.address,
              sourceAccount: user.address,
            });
            assert.equal(quoted.status, 200, JSON.stringify(quoted.body));
            const winner = quoteWinnerSchema.parse(quoted.body.data);
            const body = {
              quoteRequestId: winner.quoteRequestId,
              quoteId: winner.quoteId,
              signature: await signWinner(user, winner),
            };
            orders.push({ winner, body });
          }),
        );
      }

      // Forwards take a while, so the kill lands with some acked and the rest forwarding.
      await devnet.control("POST", "/aggregator/faults", { latencyMs: 400 });
      const acked = new Map<string, unknown>();
      const inFlight = orders.map(async ({ winner, body }, i) => {
        await new Promise((resolve) => setTimeout(resolve, i * 15));
        try {
          const answer = await api(dev, "POST", "/order/openfor", body);
          if (answer.body.success) acked.set(winner.quoteId, openForAckSchema.parse(answer.body.data));
        } catch {
          // The hub died under this call.
        }
      });
      await pollUntil("some submissions are acked", () => (acked.size >= 10 ? true : undefined), {
        timeoutMs: 30_000,
        intervalMs: 100,
      });
      first.child.kill("SIGKILL");
      await Promise.all(inFlight);
      await devnet.control("DELETE", "/aggregator/faults");
      const ackedBeforeKill = new Map(acked);
      assert.ok(ackedBeforeKill.size < SUBMISSIONS, "the kill landed before every submission was acked");

      const restartedAt = performance.now();
      const second = startHub(env, target.dataDir, dev.baseUrl);
      t.after(() => {
        second.child.kill("SIGKILL");
      });
      const restarted: Caller = { baseUrl: (await second.ready).baseUrl, apiKey: dev.apiKey };
      // A quote never reserved before the kill is forwarded after the restart only while it lives
      // (otherwise EIN0005, the right answer for an expired quote): the restart must be shorter.
      const restartMs = Math.round(performance.now() - restartedAt);
      const marginMs = Math.min(...orders.map(({ winner }) => Date.parse(winner.expiresAt))) - Date.now();
      t.diagnostic(`restart to ready ${restartMs} ms; the oldest quote lives ${marginMs} ms more`);
      assert.ok(marginMs > 0, `the restart (${restartMs} ms) outlived the quotes`);

      const codes = new Map<string, number>();
      await Promise.all(
        orders.map(async ({ winner, body }) => {
          const answer = await api(restarted, "POST", "/order/openfor", body);
          let outcome: string;
          if (answer.body.success) {
            const ack = openForAckSchema.parse(answer.body.data);
            const before = ackedBeforeKill.get(winner.quoteId);
            if (before !== undefined)
              assert.deepEqual(ack, before, "an ack given before the crash is the ack after it");
            outcome = "ack";
          } else {
            outcome = answer.body.errors[0].error_code;
            assert.ok(!ackedBeforeKill.has(winner.quoteId), `an acked quote answered ${outcome}`);
          }
          codes.set(outcome, (codes.get(outcome) ?? 0) + 1);
        }),
      );
      t.diagnostic(
        `acked before the kill ${ackedBeforeKill.size}; after restart ${JSON.stringify(Object.fromEntries(codes))}`,
      );
      assert.deepEqual(
        [...codes.keys()].filter((code) => code !== "ack" && code !== "EIN0052"),
        [],
        "every re-post answers the ack or EIN0052",
      );
      for (const [upstreamQuoteId, count] of proxy.forwards) {
        assert.ok(count <= 1, `upstream quote ${upstreamQuoteId} was forwarded ${count} times`);
      }
      second.child.kill("SIGTERM");
      await new Promise((resolve) => second.child.once("exit", resolve));
    });
  });
}
