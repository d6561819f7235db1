import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { createConnection } from "node:net";
import { performance } from "node:perf_hooks";
import { after, before, describe, test } from "node:test";
import { catalogSchema } from "@hub/contract";
import { childProcesses, processAlive, startTestDevnet, type TestDevnet } from "./devnet-test-kit.js";

function refusesConnections(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = createConnection({ host: hostname, port: Number(port) });
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(true));
  });
}

describe("devnet process", () => {
  let devnet: TestDevnet;
  let stopped = false;
  let readyMs = 0;

  before(async () => {
    const startedAt = performance.now();
    devnet = await startTestDevnet();
    readyMs = performance.now() - startedAt;
  });
  after(async () => {
    if (!stopped) await devnet.stop();
  });

  test("createDevnet resolves only once /healthz answers 200, within the 5 s target on an idle machine", async (t) => {
    t.diagnostic(`devnet ready in ${Math.round(readyMs)} ms`);
    // The target is 5 s on an idle machine (0.9 s measured); 7.5 s was seen with two suites running on a
    // shared 2-core box, so the bound only catches gross regressions (a 4 s receipt poll, a serial deploy).
    assert.ok(readyMs < 15_000, `ready took ${readyMs} ms`);
    const health = await devnet.call("GET", "/healthz");
    assert.equal(health.status, 200);
    assert.deepEqual(health.body, { status: "ready" });
  });

  test("one server mounts the aggregator, every solver, the external aggregator and the control API", async () => {
    assert.equal((await devnet.call("GET", "/aggregator/health")).status, 200);
    for (const id of ["alpha", "beta"]) {
      const health = await devnet.call<{ solverId: string }>("GET", `/solvers/${id}/health`);
      assert.equal(health.status, 200);
      assert.equal(health.body.solverId, id);
    }
    const faults = await devnet.call<{ solvers: Record<string, unknown> }>("GET", "/control/faults");
    assert.deepEqual(Object.keys(faults.body.solvers).sort(), ["alpha", "beta"]);
    const refused = await devnet.call<{ error: string }>("POST", "/external/quote", {});
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error, "VALIDATION_ERROR");
  });

  test("the manifest and the hub's catalog are written under <dataDir>/devnet", async () => {
    const manifest = JSON.parse(await readFile(devnet.files.manifestFile, "utf8"));
    assert.deepEqual(manifest, devnet.manifest);
    assert.ok(devnet.files.manifestFile.endsWith("/devnet/manifest.json"));
    const catalog = catalogSchema.parse(JSON.parse(await readFile(devnet.files.catalogFile, "utf8")));
    assert.deepEqual(catalog, devnet.catalog);
    assert.deepEqual(
      catalog.families.evm.map((chain) => chain.chainDomain),
      devnet.manifest.chains.map((chain) => chain.chainDomain),
    );
  });

  test("the manifest records the Solana chain, its USDC mint and that mint's EVM counterparts", async () => {
    const solana = devnet.manifest.solana!;
    assert.equal(solana.chainDomain, devnet.solana.chain.chainDomain);
    const [usdc] = solana.tokens;
    assert.equal(usdc?.decimals, 6);
    assert.equal(usdc?.assetKey, `${solana.chainDomain}/token:${usdc?.mint}`);
    assert.deepEqual(
      usdc?.counterparts,
      devnet.catalog.families.evm.map((chain) => chain.assets.find((asset) => asset.symbol === "USDC")!.key),
    );
    assert.deepEqual(
      solana.escrow.vaults.map((vault) => vault.mint),
      [usdc?.mint],
    );
  });

  test("time travel moves one chain's clock and mines, and leaves the other chain alone", async () => {
    const [a, b] = devnet.manifest.chains;
    const before = await devnet.clients.get(b!.chainId).publicClient.getBlock();
    const moved = await devnet.call<{ chainId: number; timestamp: number; blockNumber: string }>(
      "POST",
      `/control/chains/${a!.chainDomain}/increase-time`,
      { seconds: 3600 },
    );
    assert.equal(moved.status, 200);
    assert.equal(moved.body.chainId, a!.chainId);
    assert.ok(moved.body.timestamp >= Math.floor(Date.now() / 1000) + 3590);
    const mined = await devnet.call<{ blockNumber: string }>("POST", `/control/chains/${a!.chainId}/mine`, {
      blocks: 3,
    });
    assert.equal(BigInt(mined.body.blockNumber), BigInt(moved.body.blockNumber) + 3n);
    const after = await devnet.clients.get(b!.chainId).publicClient.getBlock();
    assert.equal(after.number, before.number);
    assert.equal((await devnet.call("POST", "/control/chains/eip155:999/mine", {})).status, 404);
    assert.equal(
      (await devnet.call("POST", `/control/chains/${a!.chainId}/increase-time`, { seconds: -5 })).status,
      400,
    );
  });

  test("increase-time on the Solana chain's domain moves its clock and slots, and only its own", async () => {
    const solana = devnet.manifest.solana!;
    const evmBefore = await devnet.clients.get(devnet.manifest.chains[0]!.chainId).publicClient.getBlock();
    const slotBefore = devnet.solana.chain.slot();
    const moved = await devnet.call<{ chainDomain: string; slot: number; timestamp: number }>(
      "POST",
      `/control/chains/${solana.chainDomain}/increase-time`,
      { seconds: 600 },
    );
    assert.equal(moved.status, 200);
    assert.equal(moved.body.chainDomain, solana.chainDomain);
    assert.ok(moved.body.timestamp >= Math.floor(Date.now() / 1000) + 590);
    assert.ok(moved.body.slot >= slotBefore + 1500, `${moved.body.slot} after ${slotBefore}`);
    const evmAfter = await devnet.clients.get(devnet.manifest.chains[0]!.chainId).publicClient.getBlock();
    assert.equal(evmAfter.number, evmBefore.number);
    const refused = await devnet.call("POST", `/control/chains/${solana.chainDomain}/increase-time`, {
      seconds: 0,
    });
    assert.equal(refused.status, 400);
  });

  test("reset puts the committee delay, the relayer and every fault knob back to their defaults", async () => {
    await devnet.call("PUT", "/control/committee/delay", { delayMs: 60_000 });
    await devnet.call("POST", "/control/relayer/pause");
    await devnet.call("POST", "/control/solvers/alpha/faults", { refuseOrders: true });
    await devnet.call("POST", "/control/aggregator/faults", { latencyMs: 10 });
    assert.equal((await devnet.call<{ delayMs: number }>("GET", "/control/committee")).body.delayMs, 60_000);
    assert.equal((await devnet.call<{ paused: boolean }>("GET", "/control/relayer")).body.paused, true);

    assert.equal((await devnet.call("POST", "/control/reset")).status, 200);
    assert.equal((await devnet.call<{ delayMs: number }>("GET", "/control/committee")).body.delayMs, 2000);
    assert.equal((await devnet.call<{ paused: boolean }>("GET", "/control/relayer")).body.paused, false);
    assert.deepEqual((await devnet.call("GET", "/control/faults")).body, {
      solvers: { alpha: {}, beta: {} },
      aggregator: {},
      rpc: Object.fromEntries(devnet.manifest.chains.map((chain) => [chain.chainId, {}])),
    });
  });

  test("the control API refuses a rebound Host, a cross-origin page and a POST without JSON, and changes nothing", async () => {
    const port = new URL(devnet.url).port;
    const send = (headers: Record<string, string>, body?: string) =>
      new Promise<{ status: number; error: string }>((resolve, reject) => {
        const outgoing = httpRequest(
          { host: "127.0.0.1", port, method: "POST", path: "/control/relayer/pause", headers },
          (response) => {
            let text = "";
            response.on("data", (chunk) => {
              text += chunk;
            });
            response.on("end", () =>
              resolve({ status: response.statusCode ?? 0, error: JSON.parse(text).error }),
            );
          },
        );
        outgoing.on("error", reject);
        outgoing.end(body);
      });
    const json = { "content-type": "application/json" };
    assert.deepEqual(await send({ host: `rebound.example:${port}`, ...json }, "{}"), {
      status: 403,
      error: "HOST_NOT_ALLOWED",
    });
    assert.deepEqual(
      await send({ host: `127.0.0.1:${port}`, origin: "https://page.example", ...json }, "{}"),
      {
        status: 403,
        error: "ORIGIN_NOT_ALLOWED",
      },
    );
    assert.deepEqual(await send({ host: `127.0.0.1:${port}`, origin: "https://page.example" }), {
      status: 403,
      error: "ORIGIN_NOT_ALLOWED",
    });
    assert.deepEqual(await send({ host: `localhost:${port}`, "content-type": "text/plain" }, "x"), {
      status: 415,
      error: "UNSUPPORTED_MEDIA_TYPE",
    });
    assert.equal((await devnet.call<{ paused: boolean }>("GET", "/control/relayer")).body.paused, false);
  });

  test("stop closes the server and leaves no anvil running", async () => {
    const anvils = await childProcesses(process.pid, "anvil");
    assert.ok(anvils.length >= 2, `expected the two chain nodes among ${anvils}`);
    await devnet.stop();
    stopped = true;
    for (const pid of anvils) assert.equal(await processAlive(pid), false, `anvil ${pid} still running`);
    assert.ok(await refusesConnections(devnet.url));
    for (const chain of devnet.manifest.chains) assert.ok(await refusesConnections(chain.rpcUrl));
    assert.ok(await refusesConnections(devnet.manifest.solana!.rpcUrl));
  });
});
