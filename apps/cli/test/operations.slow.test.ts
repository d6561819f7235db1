import assert from "node:assert/strict";
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { type CatalogChain, openForAckSchema, quoteWinnerSchema } from "@hub/contract";
import { createDevnet, type Devnet } from "@hub/devnet-app";
import { signWinner } from "@hub/hub-app/test-submissions";
import {
  NGINX,
  type PrivateServer,
  pollUntil,
  type StartedNginx,
  startNginxSite,
  startPrivatePostgres,
} from "@hub/test-support";
import { pino } from "pino";
import { jsonOf, runHub } from "./run-hub.js";

// docs/operations.md, tested as written: `hub start` without the devnet (HUB_DEVNET=0) against the
// devnet's aggregators and chains as if they were external, on a PostgreSQL server of the test's own
// (it is stopped below; the machine's shared one never is) and Redis when REDIS_URL names one, behind
// nginx with ops/nginx/hub.conf, watched through the operator listener and `hub doctor`.

const root = new URL("../../../", import.meta.url).pathname;
const POSTGRES = "/usr/lib/postgresql/15/bin/postgres";
const PROMTOOL = "/usr/bin/promtool";
const missing = [NGINX, POSTGRES, PROMTOOL].filter((path) => !existsSync(path));
const skip =
  missing.length > 0
    ? `${missing.join(", ")} absent (nginx-light, postgresql-15, prometheus; .ci/run installs them)`
    : false;
if (skip) {
  if (process.env.CI === "true") throw new Error(`the operations test needs them in CI: ${skip}`);
  console.log(`skipping the operations test: ${skip}`);
}

interface Readiness {
  status: string;
  notReady: string[];
  checks: { name: string; ready: boolean; detail?: string }[];
}

interface RunningHub {
  child: ChildProcess;
  exited: Promise<number | null>;
  /** Every line the process wrote to stdout so far. */
  lines(): string[];
  baseUrl: string;
  operator: string;
  metricsUrl: string;
}

/** `hub start` as its own process; resolves once its banner (one JSON line: stdout is a pipe) is out. */
async function startHub(env: NodeJS.ProcessEnv): Promise<RunningHub> {
  const child = spawn(process.execPath, ["apps/cli/bin/hub.js", "start"], {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const lines = () => stdout.split("\n").filter((line) => line.length > 0);
  const banner = await pollUntil(
    "the ready line",
    () => {
      if (child.exitCode !== null)
        throw new Error(`hub start exited ${child.exitCode}:\n${stdout}\n${stderr}`);
      return lines()
        .map((line) => JSON.parse(line) as { msg?: string; baseUrl?: string; metricsUrl?: string })
        .find((entry) => entry.msg?.startsWith("ready in "));
    },
    { timeoutMs: 90_000, intervalMs: 100 },
  );
  const metricsUrl = banner.metricsUrl as string;
  return {
    child,
    exited,
    lines,
    baseUrl: banner.baseUrl as string,
    metricsUrl,
    operator: new URL(metricsUrl).origin,
  };
}

async function readiness(url: string): Promise<{ status: number; body: Readiness }> {
  const response = await fetch(url);
  return { status: response.status, body: (await response.json()) as Readiness };
}

function promtool(args: string[], input?: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = execFile(PROMTOOL, args, { timeout: 30_000 }, (error, stdout, stderr) =>
      resolve({
        code: error ? (typeof error.code === "number" ? error.code : 1) : 0,
        output: stdout + stderr,
      }),
    );
    child.stdin?.end(input ?? "");
  });
}

describe("operations: hub start without the devnet, on PostgreSQL, behind nginx", { skip }, () => {
  let devnet: Devnet;
  let postgres: PrivateServer;
  let work: string;
  let env: NodeJS.ProcessEnv;
  let hub: RunningHub | undefined;
  let nginx: StartedNginx | undefined;
  let nginxOrigin: string;
  let apiKey: string;
  let quoteBody: Record<string, string>;

  const control = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${devnet.url}/control${path}`, {
      method,
      ...(body === undefined
        ? {}
        : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
    });
    assert.ok(response.ok, `${method} /control${path}: ${response.status}`);
  };
  const quote = (baseUrl: string) =>
    fetch(`${baseUrl}/quote`, {
      method: "POST",
      headers: { "x-api-key": apiKey, "x-service-subject": "ops-user", "content-type": "application/json" },
      body: JSON.stringify(quoteBody),
    });

  before(async () => {
    work = await mkdtemp(join(tmpdir(), "hub-operations-"));
    devnet = await createDevnet({
      port: 0,
      rpcPorts: [0, 0],
      dataDir: join(work, "devnet"),
      pollIntervalMs: 100,
      logger: pino({ level: "silent" }),
    });
    postgres = await startPrivatePostgres();
    const providersFile = join(work, "providers.json");
    await writeFile(
      providersFile,
      JSON.stringify([
        // A long timeout, so a hanging aggregator holds a quote until the round's own deadline.
        {
          id: "oif",
          kind: "oif-aggregator",
          dialect: "oif-aggregator",
          baseUrl: `${devnet.url}/aggregator`,
          timeoutMs: 60_000,
        },
        { id: "ext", kind: "external-aggregator", baseUrl: `${devnet.url}/external` },
      ]),
    );
    env = {
      ...process.env,
      HUB_DEVNET: "0",
      HUB_DATA_DIR: join(work, "data"),
      HUB_CATALOG_FILE: devnet.files.catalogFile,
      HUB_PROVIDERS_FILE: providersFile,
      HUB_CHAIN_RPC_URLS: devnet.manifest.chains
        .map((chain) => `${chain.chainDomain}=${chain.rpcUrl}`)
        .join(","),
      DATABASE_URL: postgres.url,
      GATEWAY_PORT: "0",
      HUB_PORT: "0",
      DASHBOARD_PORT: "0",
      METRICS_PORT: "0",
      GATEWAY_TRUSTED_PROXIES: "127.0.0.1/32",
      LOG_LEVEL: "info",
      LOG_FORMAT: "",
    };
    if (!process.env.REDIS_URL) delete env.REDIS_URL;

    const [origin, destination] = devnet.catalog.families.evm as [CatalogChain, CatalogChain];
    const usdc = (chain: CatalogChain) => chain.assets.find((asset) => asset.symbol === "USDC")!.key;
    const user = devnet.manifest.users[0]!;
    quoteBody = {
      sourceAsset: usdc(origin),
      destinationAsset: usdc(destination),
      amount: "1000000",
      recipient: user.address,
      sourceAccount: user.address,
    };
  });

  after(async () => {
    if (hub && hub.child.exitCode === null) hub.child.kill("SIGKILL");
    await nginx?.close();
    await postgres?.close();
    await devnet?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  test("it starts, logs JSON lines on a pipe, and every check of /readyz turns ready", async () => {
    hub = await startHub(env);
    for (const line of hub.lines()) assert.doesNotThrow(() => JSON.parse(line), `not a JSON line: ${line}`);
    const report = await pollUntil(
      "/readyz answers 200",
      async () => {
        const answer = await readiness(`${hub!.operator}/readyz`);
        return answer.status === 200 ? answer.body : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 250 },
    );
    const chains = devnet.manifest.chains.flatMap((chain) => [
      `chain:${chain.chainDomain}`,
      `reconciler:${chain.chainDomain}`,
    ]);
    assert.deepEqual(
      report.checks.map((check) => check.name).sort(),
      ["database", ...(env.REDIS_URL ? ["redis"] : []), "upstream:ext", "upstream:oif", ...chains].sort(),
    );
    assert.deepEqual(report.notReady, []);
    // The gateway answers the same report, and /healthz stays its alias.
    for (const path of ["/readyz", "/healthz"]) {
      const gateway = await readiness(`${new URL(hub.baseUrl).origin}${path}`);
      assert.equal(gateway.status, 200, path);
      assert.equal(gateway.body.status, "ready");
    }
    const live = await fetch(`${hub.operator}/livez`);
    assert.equal(live.status, 200);

    const doctor = await runHub(["doctor", "--url", hub.operator, "--json"], {
      dataDir: env.HUB_DATA_DIR!,
      databaseUrl: postgres.url,
    });
    assert.equal(doctor.code, 0, doctor.stderr);
    assert.equal(jsonOf(doctor).status, "ready");
  });

  test("behind nginx (ops/nginx/hub.conf) a key made with hub admin gets a quote from the external upstreams", async () => {
    const running = hub!;
    const target = { dataDir: env.HUB_DATA_DIR!, databaseUrl: postgres.url };
    const org = jsonOf(await runHub(["admin", "org", "create", "--name", "ops", "--json"], target));
    const key = jsonOf(
      await runHub(["admin", "key", "create", "--org", org.organization.orgId, "--json"], target),
    );
    apiKey = key.apiKey.key;

    const site = (await readFile(join(root, "ops/nginx/hub.conf"), "utf8")).replace(
      "127.0.0.1:8080",
      new URL(running.baseUrl).host,
    );
    nginx = await startNginxSite((port) => site.replaceAll("listen 80;", `listen 127.0.0.1:${port};`));
    nginxOrigin = nginx.origin;
    const ready = await pollUntil(
      "nginx forwards /readyz",
      async () => {
        try {
          const answer = await readiness(`${nginxOrigin}/readyz`);
          return answer.status === 200 ? answer.body : undefined;
        } catch {
          return undefined;
        }
      },
      { timeoutMs: 15_000, intervalMs: 100 },
    );
    assert.equal(ready.status, "ready");

    const answer = await quote(`${nginxOrigin}/v1`);
    const body = (await answer.json()) as { success: boolean; data?: { lane?: string } };
    assert.equal(answer.status, 200, JSON.stringify(body));
    assert.equal(body.success, true);
  });

  test("the real /metrics passes promtool check metrics and names every series the alert rules and the dashboard use", async () => {
    const text = await (await fetch(hub!.metricsUrl)).text();
    const lint = await promtool(["check", "metrics"], text);
    assert.equal(lint.code, 0, lint.output);
    const rules = await promtool(["check", "rules", join(root, "ops/prometheus/hub-alerts.yml")]);
    assert.equal(rules.code, 0, rules.output);

    const exposed = new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((match) => match[1]));
    const used = new Set<string>();
    for (const file of ["ops/prometheus/hub-alerts.yml", "ops/grafana/hub-dashboard.json"]) {
      const source = await readFile(join(root, file), "utf8");
      for (const match of source.matchAll(/\b((?:hub|gateway)_[a-z_]+)/g)) {
        used.add(match[1]!.replace(/_(bucket|sum|count)$/, ""));
      }
    }
    assert.ok(used.size >= 10, `the rules and the dashboard use ${[...used].join(", ")}`);
    for (const name of used) assert.ok(exposed.has(name), `${name} is used by ops/ but not exposed`);
    // The quote above went through a round and reached both upstreams.
    assert.match(text, /^hub_quote_round_duration_seconds_count\{outcome="quotes"\} [1-9]/m);
    assert.match(text, /^hub_upstream_calls_total\{provider="oif",result="2xx"\} [1-9]/m);
    assert.match(text, /^hub_upstream_last_success_timestamp_seconds\{provider="oif"\} \d/m);
    assert.match(text, /^hub_reservations_pending\{state="unknown"\} 0$/m);
    assert.match(text, /^hub_reconciler_lag_blocks\{chain="eip155:31337"\} \d+$/m);
  });

  test("/readyz turns not ready, naming the database, within 5 s of stopping PostgreSQL, and ready again once it is back", async () => {
    const running = hub!;
    await postgres.stop();
    const down = await pollUntil(
      "/readyz names the database",
      async () => {
        const answer = await readiness(`${running.operator}/readyz`);
        return answer.status === 503 && answer.body.notReady.includes("database") ? answer.body : undefined;
      },
      { timeoutMs: 5000, intervalMs: 100 },
    );
    assert.equal(down.status, "not-ready");
    const doctor = await runHub(["doctor", "--url", running.operator], {
      dataDir: env.HUB_DATA_DIR!,
      databaseUrl: undefined,
    });
    assert.equal(doctor.code, 1);
    assert.match(doctor.stdout, /^not ready: .*database/m);
    assert.match(doctor.stdout, /FAIL +database/);

    await postgres.start();
    await pollUntil(
      "/readyz is ready again",
      async () => ((await readiness(`${running.operator}/readyz`)).status === 200 ? true : undefined),
      { timeoutMs: 20_000, intervalMs: 250 },
    );
  });

  test("SIGTERM lets a submission in flight finish: its caller gets the ack, and the process exits 0", async () => {
    const running = hub!;
    const user = devnet.manifest.users[0]!;
    // Prepared on the OIF aggregator (a preview's offer), so the winner is a lane the user signs for.
    const post = async (path: string, json: unknown) => {
      const answer = await fetch(`${running.baseUrl}${path}`, {
        method: "POST",
        headers: { "x-api-key": apiKey, "x-service-subject": "ops-user", "content-type": "application/json" },
        body: JSON.stringify(json),
      });
      const envelope = (await answer.json()) as { success: boolean; data: unknown };
      assert.equal(answer.status, 200, `${path}: ${JSON.stringify(envelope)}`);
      return envelope.data;
    };
    const preview = (await post("/quote/preview", quoteBody)) as { offers: { provider: string }[] };
    const offer = preview.offers.find((candidate) => candidate.provider.startsWith("oif."));
    assert.ok(offer, JSON.stringify(preview));
    const winner = quoteWinnerSchema.parse(
      await post("/quote/prepare", { ...quoteBody, preparationId: "ops-stop", provider: offer.provider }),
    );
    const body = {
      quoteRequestId: winner.quoteRequestId,
      quoteId: winner.quoteId,
      signature: await signWinner(user, winner),
    };
    // The aggregator answers the forward after 2 s, so the stop begins while it is under way.
    await control("POST", "/aggregator/faults", { latencyMs: 2000 });
    try {
      const submitted = post("/order/openfor", body);
      await pollUntil(
        "the submission is forwarding",
        async () =>
          /^hub_reservations_pending\{state="forwarding"\} 1$/m.test(
            await (await fetch(running.metricsUrl)).text(),
          ) || undefined,
        { timeoutMs: 10_000, intervalMs: 50 },
      );
      running.child.kill("SIGTERM");
      openForAckSchema.parse(await submitted);
      assert.equal(await running.exited, 0, running.lines().slice(-15).join("\n"));
    } finally {
      await control("DELETE", "/aggregator/faults");
    }
  });

  test("a stop held by an in-flight quote ends after 10 s; another start ends on a second SIGINT", async () => {
    await control("POST", "/aggregator/faults", { hang: true });
    try {
      for (const signals of [1, 2]) {
        const running = await startHub(env);
        hub = running;
        const held = quote(running.baseUrl).catch(() => undefined);
        await pollUntil(
          "a quote is in flight",
          async () =>
            /^hub_quotes_in_flight 1$/m.test(await (await fetch(running.metricsUrl)).text()) || undefined,
          { timeoutMs: 10_000, intervalMs: 100 },
        );
        running.child.kill("SIGINT");
        await pollUntil(
          "the stop began",
          () => running.lines().some((line) => line.includes('"msg":"stopping')) || undefined,
          {
            timeoutMs: 5000,
            intervalMs: 50,
          },
        );
        assert.equal(running.child.exitCode, null, "the stop waits for the quote in flight");
        if (signals === 2) running.child.kill("SIGINT");
        const code = await running.exited;
        if (signals === 1) {
          assert.equal(code, 1);
          assert.ok(
            running.lines().some((line) => line.includes("took longer than 10 s")),
            running.lines().join("\n"),
          );
        } else {
          assert.equal(code, 130);
          assert.ok(
            running.lines().some((line) => line.includes("second signal")),
            running.lines().join("\n"),
          );
        }
        await held;
      }
    } finally {
      await control("DELETE", "/aggregator/faults");
    }
  });
});
