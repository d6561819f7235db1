import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, describe, test } from "node:test";
import { getCatalogResponseData, successEnvelopeSchema } from "@hub/contract";
import { freePort, pollUntil } from "@hub/test-support";
import { GATEWAY_SECRET, testCatalog } from "./hub-fixture.js";
import { callApi, createOrgWithKey } from "./hub-process.js";

// The gateway and the hub as two `hub start --only` processes sharing PostgreSQL: a call through the
// gateway crosses HTTP to the hub; the settings that would expose a listener, or cannot work apart,
// stop a process before it listens.

const root = fileURLToPath(new URL("../../../", import.meta.url));
const skip = process.env.DATABASE_URL ? false : "DATABASE_URL is not set";

interface Part {
  child: ChildProcess;
  stderr(): string;
  exited: Promise<number | null>;
}

function startPart(only: string, env: NodeJS.ProcessEnv): Part {
  const child = spawn(process.execPath, ["apps/cli/bin/hub.js", "start", "--only", only], {
    cwd: root,
    env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, stderr: () => stderr, exited };
}

async function answersOk(url: string, part: Part, what: string): Promise<void> {
  await pollUntil(
    what,
    async () => {
      if (part.child.exitCode !== null)
        throw new Error(`${what}: exited ${part.child.exitCode}: ${part.stderr()}`);
      try {
        const answer = await fetch(url);
        await answer.body?.cancel();
        return answer.ok ? true : undefined;
      } catch {
        return undefined;
      }
    },
    { timeoutMs: 60_000, intervalMs: 100 },
  );
}

async function stopPart(part: Part | undefined): Promise<void> {
  if (!part || part.child.exitCode !== null || part.child.signalCode !== null) return;
  part.child.kill("SIGTERM");
  await part.exited;
}

describe("hub start --only: the gateway and the hub in two processes", { skip }, () => {
  let dataDir: string;
  let base: NodeJS.ProcessEnv;
  let hub: Part;
  let gateway: Part;
  let gatewayUrl: string;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "hub-split-"));
    const catalogFile = join(dataDir, "catalog.json");
    writeFileSync(catalogFile, JSON.stringify(testCatalog()));
    const [hubPort, gatewayPort] = [await freePort(), await freePort()];
    base = {
      ...process.env,
      HUB_DEVNET: "0",
      HUB_CATALOG_FILE: catalogFile,
      HUB_DATA_DIR: dataDir,
      METRICS_PORT: "0",
      LOG_LEVEL: "warn",
      LOG_FORMAT: "json",
    };
    const secretFile = join(dataDir, "gateway-secret");
    writeFileSync(secretFile, `${GATEWAY_SECRET}\n`);
    hub = startPart("hub", { ...base, HUB_GATEWAY_SECRET: GATEWAY_SECRET, HUB_PORT: String(hubPort) });
    // The gateway reads the same secret from a file, as a container platform mounts it.
    gateway = startPart("gateway", {
      ...base,
      HUB_GATEWAY_SECRET_FILE: secretFile,
      GATEWAY_PORT: String(gatewayPort),
      HUB_URL: `http://127.0.0.1:${hubPort}`,
    });
    gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    await answersOk(`http://127.0.0.1:${hubPort}/livez`, hub, "the hub listens");
    await answersOk(`${gatewayUrl}/readyz`, gateway, "the gateway reaches the hub");
  });

  after(async () => {
    await Promise.all([stopPart(gateway), stopPart(hub)]);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  test("a key's GET /v1/catalog through the gateway process is answered by the hub process", async () => {
    const { key } = await createOrgWithKey(base, "split");
    const answer = await callApi(`${gatewayUrl}/v1`, "GET", "/catalog", { headers: { "x-api-key": key } });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const envelope = successEnvelopeSchema(getCatalogResponseData).parse(answer.body);
    // The hub process's catalog file, read there: the gateway process has none.
    assert.deepEqual(
      envelope.data.families.evm.map((chain) => chain.chainDomain),
      testCatalog().families.evm.map((chain) => chain.chainDomain),
    );
    assert.equal(answer.headers.get("x-content-type-options"), "nosniff");
    const unknownKey = await callApi(`${gatewayUrl}/v1`, "GET", "/catalog", {
      headers: { "x-api-key": `${key.slice(0, -4)}zzzz` },
    });
    assert.equal(unknownKey.status, 401);
  });

  test("a dashboard part listens with the shared database and stops on SIGTERM with exit code 0", async () => {
    const port = await freePort();
    const own = startPart("dashboard", { ...base, DASHBOARD_PORT: String(port) });
    await answersOk(`http://127.0.0.1:${port}/sign-in`, own, "the dashboard part answers");
    own.child.kill("SIGTERM");
    assert.equal(await own.exited, 0);
  });

  test("a split without HUB_GATEWAY_SECRET, a hub on 0.0.0.0 without it and an open operator listener are refused before listening", async () => {
    const rows: [string, NodeJS.ProcessEnv, RegExp][] = [
      ["gateway", base, /--only gateway runs the gateway and the hub apart: set HUB_GATEWAY_SECRET/],
      [
        "hub",
        { ...base, HUB_HOST: "0.0.0.0" },
        /HUB_HOST=0\.0\.0\.0 lets other machines reach the hub: set HUB_GATEWAY_SECRET/,
      ],
      [
        "dashboard",
        { ...base, METRICS_HOST: "0.0.0.0" },
        /METRICS_HOST=0\.0\.0\.0 exposes the operator listener, which has no authentication/,
      ],
      ["gateway", { ...base, HUB_GATEWAY_SECRET: GATEWAY_SECRET, HUB_DEVNET: "1" }, /set HUB_DEVNET=0/],
    ];
    for (const [only, env, message] of rows) {
      const refused = startPart(only, env);
      assert.notEqual(await refused.exited, 0, String(message));
      assert.match(refused.stderr(), message);
    }
  });
});
