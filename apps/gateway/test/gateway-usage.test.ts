import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { after, before, describe, test } from "node:test";
import { type Admin, createAdmin } from "@hub/admin";
import { type AdjustableClock, createAdjustableClock } from "@hub/clock";
import { createMemoryCounters } from "@hub/counters";
import { createTestHubApp } from "@hub/hub-app/test-harness";
import { createTestDatabases, openStore, type PreparedDataDir, type Store } from "@hub/store";
import { pino } from "pino";
import {
  createCredentialResolver,
  createGatewayApp,
  createInProcessHubTransport,
  createUsageTally,
  type GatewayApp,
  type UsageTally,
} from "../src/index.js";
import { HUB_SECRET } from "./fixtures/start-gateway.js";

const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
after(() => databases.dispose());

const PAGE = "https://wallet.example";
const QUOTE = JSON.stringify({
  sourceAsset: "eip155:31337/erc20:0x00000000000000000000000000000000000000aa",
  destinationAsset: "eip155:31337/slip44:60",
  amount: "1000000",
  recipient: "0x00000000000000000000000000000000000000bb",
});

for (const { driver, skip } of databases.drivers) {
  describe(`the gateway's usage counters on ${driver}`, { skip }, () => {
    let target: PreparedDataDir;
    let store: Store;
    let admin: Admin;
    let clock: AdjustableClock;
    let gateway: GatewayApp;
    let usage: UsageTally;
    let closeAll: () => Promise<void>;
    let writesFail = false;
    const logLines: string[] = [];

    before(async () => {
      target = await databases.prepareDataDir(driver);
      store = await openStore({ dataDir: target.dataDir, databaseUrl: target.databaseUrl });
      clock = createAdjustableClock({ now: () => Date.parse("2026-03-01T10:00:05.000Z") });
      admin = createAdmin({ store: store.access, usage: store.usage, clock });
      const logger = pino(
        { level: "info" },
        new Writable({
          write(chunk, _encoding, done) {
            logLines.push(String(chunk));
            done();
          },
        }),
      );
      // The hub lets each organization one charged call, so the next is its EIN0080.
      const hub = createTestHubApp({
        config: { gatewayCredential: HUB_SECRET, organizationBucket: { ratePerSecond: 0.001, burst: 1 } },
      });
      const credentials = createCredentialResolver({}, { store: store.access, logger, clock });
      usage = createUsageTally(
        { flushMs: 3_600_000 },
        {
          store: {
            addUsage: async (rows, keyRows) => {
              if (writesFail) throw new Error("the database is away");
              await store.usage.addUsage(rows, keyRows);
            },
          },
          logger,
          clock,
        },
      );
      const transport = createInProcessHubTransport(hub);
      gateway = createGatewayApp({
        config: {
          hubCredential: HUB_SECRET,
          lockoutFailures: 3,
          visitorBucket: { ratePerSecond: 0.001, burst: 1 },
          projectQuoteCost: 1,
        },
        credentials,
        counters: createMemoryCounters({}, { clock }),
        transport,
        logger,
        clock,
        usage,
      });
      closeAll = async () => {
        await gateway.close();
        await usage.close();
        await credentials.close();
        await transport.close();
        await hub.close();
      };
    });
    after(async () => {
      await closeAll?.();
      await store?.close();
      await target?.dispose();
    });

    async function organizationWithAccess(name: string) {
      const { organization } = await admin.createOrganization({ name });
      const { project } = await admin.createProject({ orgId: organization.orgId, origins: [PAGE] });
      const { apiKey } = await admin.createKey({ orgId: organization.orgId });
      return { orgId: organization.orgId, projectId: project.projectId, key: apiKey.key };
    }

    async function call(
      method: "GET" | "POST",
      url: string,
      headers: Record<string, string>,
      options: { ip?: string; body?: string } = {},
    ) {
      const answer = await gateway.inject({
        method,
        url,
        headers,
        remoteAddress: options.ip ?? "10.0.0.1",
        ...(options.body !== undefined ? { payload: options.body } : {}),
      });
      return { status: answer.statusCode, code: answer.json().errors?.[0]?.error_code as string | undefined };
    }

    test("calls count per organization by credential kind, and refusals by code, the hub's EIN0080 included", async () => {
      const { orgId, projectId, key } = await organizationWithAccess("Counted");
      const asPage = { "x-project-id": projectId, origin: PAGE };
      assert.equal((await call("GET", "/v1/catalog", asPage)).status, 200);
      assert.equal((await call("GET", "/v1/catalog", asPage)).code, "EPX0082");
      const foreign = await call("GET", "/v1/catalog", { ...asPage, origin: "https://evil.example" });
      assert.equal(foreign.code, "EPX0010");
      const quote = { "x-api-key": key, "content-type": "application/json", "x-service-subject": "alice" };
      await call("POST", "/v1/quote", quote, { body: QUOTE });
      assert.equal((await call("POST", "/v1/quote", quote, { body: QUOTE })).code, "EIN0080");
      assert.equal((await call("GET", "/v1/catalog", { "x-api-key": key })).status, 200);
      assert.equal((await call("GET", "/v1/nowhere", { "x-api-key": key })).code, "EPX0004");
      await usage.flush();

      const read = await admin.usage({ orgId });
      assert.equal(read.hours.length, 24);
      assert.equal(read.hours.at(-1)?.hour, "2026-03-01T10:00:00.000Z");
      assert.equal(read.to, "2026-03-01T11:00:00.000Z");
      // The unknown route is refused before the credential is read: no organization to count it for.
      assert.deepEqual(read.totals.requests, { apiKey: 3, projectId: 3 });
      assert.equal(read.totals.refusals.EPX0082, 1);
      assert.equal(read.totals.refusals.EPX0010, 1);
      assert.equal(read.totals.refusals.EIN0080, 1);
      assert.equal(read.totals.refusals.EPX0004, undefined);
      assert.equal(read.totals.lockouts, 0);
      assert.deepEqual(read.hours.at(-1)?.requests, read.totals.requests);
      assert.deepEqual(read.hours.at(-1)?.refusals, read.totals.refusals);
      // The project id's pool section: its one admitted read, its visitor's refusal; the refused origin
      // never reached the pools.
      assert.deepEqual(read.totals.projectPool, {
        admitted: { reads: 1, quotes: 0, orders: 0 },
        poolRefusals: 0,
        visitorRefusals: 1,
      });
    });

    test("a lockout counts for the organization whose credential the locked-out call names", async () => {
      const { orgId, key } = await organizationWithAccess("Locked out");
      const ip = "10.0.0.81";
      assert.equal((await call("GET", "/v1/catalog", { "x-api-key": key }, { ip })).status, 200);
      for (let i = 0; i < 3; i += 1) {
        assert.equal(
          (await call("GET", "/v1/catalog", { "x-api-key": "svc_sk_wrong" }, { ip })).code,
          "EPX0001",
        );
      }
      assert.equal((await call("GET", "/v1/catalog", { "x-api-key": key }, { ip })).code, "EPX0081");
      await usage.flush();

      const read = await admin.usage({ orgId });
      assert.deepEqual(read.totals.requests, { apiKey: 2, projectId: 0 });
      assert.deepEqual(read.totals.refusals, { EPX0081: 1 });
      assert.equal(read.totals.lockouts, 1);
      assert.equal(read.hours.at(-1)?.lockouts, 1);
    });

    test("flushes add up: two flushes and a second gateway's counts land in the same minute's row", async () => {
      const { orgId, key } = await organizationWithAccess("Added up");
      await call("GET", "/v1/catalog", { "x-api-key": key });
      await usage.flush();
      await call("GET", "/v1/catalog", { "x-api-key": key });
      await usage.flush();
      const replica = createUsageTally({}, { store: store.usage, logger: pino({ level: "silent" }), clock });
      replica.count(orgId, "api_key", "read", "");
      await replica.close();
      assert.deepEqual((await admin.usage({ orgId })).totals.requests, { apiKey: 3, projectId: 0 });

      clock.advance(3_600_000);
      await call("GET", "/v1/catalog", { "x-api-key": key });
      await usage.flush();
      const read = await admin.usage({ orgId });
      assert.deepEqual(read.hours.at(-1)?.requests, { apiKey: 1, projectId: 0 });
      assert.deepEqual(read.hours.at(-2)?.requests, { apiKey: 3, projectId: 0 });
      assert.deepEqual(read.totals.requests, { apiKey: 4, projectId: 0 });
    });

    test("a failed write holds up no call, and its counts are written by the next flush", async () => {
      const { orgId, key } = await organizationWithAccess("Retried");
      writesFail = true;
      try {
        assert.equal((await call("GET", "/v1/catalog", { "x-api-key": key })).status, 200);
        await usage.flush();
        assert.ok(logLines.some((line) => line.includes("could not write usage counts")));
        assert.equal((await call("GET", "/v1/catalog", { "x-api-key": key })).status, 200);
        assert.deepEqual((await admin.usage({ orgId })).totals.requests, { apiKey: 0, projectId: 0 });
      } finally {
        writesFail = false;
      }
      await usage.flush();
      assert.deepEqual((await admin.usage({ orgId })).totals.requests, { apiKey: 2, projectId: 0 });
      const [keyUsage] = (await admin.keyUsage({ orgId })).keys;
      assert.deepEqual(keyUsage?.totals, { quote: 0, order: 0, status: 0, other: 2 }, "the key's counts too");
    });

    test("calls with a key count for that key per UTC day and route kind, answered or refused once the key was accepted", async () => {
      const { orgId, projectId, key } = await organizationWithAccess("Per key");
      const { apiKey: second } = await admin.createKey({ orgId });
      const asKey = (apiKey: string) => ({
        "x-api-key": apiKey,
        "content-type": "application/json",
        "x-service-subject": "alice",
      });
      await call("POST", "/v1/quote", asKey(key), { body: QUOTE });
      assert.equal((await call("POST", "/v1/quote/preview", asKey(key), { body: QUOTE })).code, "EIN0080");
      await call("POST", "/v1/order", asKey(key), { body: "{}" });
      await call("GET", "/v1/status/0xabc", asKey(key));
      await call("GET", "/v1/onchain/0xabc/fill", asKey(key));
      await call("GET", "/v1/catalog", asKey(second.key));
      await call("GET", "/v1/orders", asKey(second.key));
      assert.equal((await call("GET", "/v1/catalog", asKey("svc_sk_unknown"))).code, "EPX0001");
      await call("GET", "/v1/catalog", { "x-project-id": projectId, origin: PAGE });
      await usage.flush();
      clock.advance(24 * 3_600_000);
      await call("GET", "/v1/catalog", asKey(key));
      await usage.flush();

      const read = await admin.keyUsage({ orgId });
      assert.equal(read.to, "2026-03-02");
      const first = read.keys.find((entry) => entry.keyId !== second.keyId);
      assert.deepEqual(first?.totals, { quote: 2, order: 1, status: 2, other: 1 });
      assert.deepEqual(first?.days.at(-2), { day: "2026-03-01", quote: 2, order: 1, status: 2, other: 0 });
      assert.deepEqual(first?.days.at(-1), { day: "2026-03-02", quote: 0, order: 0, status: 0, other: 1 });
      const other = read.keys.find((entry) => entry.keyId === second.keyId);
      assert.deepEqual(other?.totals, { quote: 0, order: 0, status: 0, other: 2 });
      assert.equal(read.keys.length, 2, "the project id's call counts for no key");
    });
  });
}
