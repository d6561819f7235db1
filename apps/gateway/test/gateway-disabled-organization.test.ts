import assert from "node:assert/strict";
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
  type GatewayApp,
} from "../src/index.js";
import { HUB_SECRET } from "./fixtures/start-gateway.js";

const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
after(() => databases.dispose());

const PAGE = "https://wallet.example";

for (const { driver, skip } of databases.drivers) {
  describe(`a disabled organization at the gateway on ${driver}`, { skip }, () => {
    let target: PreparedDataDir;
    let store: Store;
    let admin: Admin;
    let clock: AdjustableClock;
    let gateway: GatewayApp;
    let closeAll: () => Promise<void>;

    before(async () => {
      target = await databases.prepareDataDir(driver);
      store = await openStore({ dataDir: target.dataDir, databaseUrl: target.databaseUrl });
      clock = createAdjustableClock({ now: () => Date.parse("2026-03-01T10:00:05.000Z") });
      admin = createAdmin({ store: store.access, accounts: store.dashboard, clock });
      const logger = pino({ level: "silent" });
      const hub = createTestHubApp({ config: { gatewayCredential: HUB_SECRET } });
      const credentials = createCredentialResolver({}, { store: store.access, logger, clock });
      const transport = createInProcessHubTransport(hub);
      gateway = createGatewayApp({
        config: { hubCredential: HUB_SECRET, lockoutFailures: 3 },
        credentials,
        counters: createMemoryCounters({}, { clock }),
        transport,
        logger,
        clock,
      });
      closeAll = async () => {
        await gateway.close();
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

    const call = async (headers: Record<string, string>) => {
      const answer = await gateway.inject({
        method: "GET",
        url: "/v1/catalog",
        headers,
        remoteAddress: "10.0.0.7",
      });
      return { status: answer.statusCode, code: answer.json().errors?.[0]?.error_code as string | undefined };
    };

    test("its key answers EPX0002 and its project id EPX0009 while disabled, and both work again once enabled", async () => {
      const { organization } = await admin.createOrganization({ name: "Paused" });
      const orgId = organization.orgId;
      const { project } = await admin.createProject({ orgId, origins: [PAGE] });
      const { apiKey } = await admin.createKey({ orgId });
      const asKey = { "x-api-key": apiKey.key };
      const asPage = { "x-project-id": project.projectId, origin: PAGE };
      assert.equal((await call(asKey)).status, 200);
      assert.equal((await call(asPage)).status, 200);

      await admin.setOrganizationDisabled({ orgId, disabled: true });
      clock.advance(1_500); // past the resolver's 1 s cache
      assert.deepEqual(await call(asKey), { status: 401, code: "EPX0002" });
      assert.deepEqual(await call(asPage), { status: 401, code: "EPX0009" });

      await admin.setOrganizationDisabled({ orgId, disabled: false });
      clock.advance(1_500);
      assert.equal((await call(asKey)).status, 200);
      assert.equal((await call(asPage)).status, 200);
    });

    test("a disabled key answers EPX0002 as a revoked one does, within the same 1 s cache, counts no lockout, and works again once enabled", async () => {
      const { organization } = await admin.createOrganization({ name: "Key paused" });
      const orgId = organization.orgId;
      const { apiKey: paused } = await admin.createKey({ orgId, label: "paused" });
      const { apiKey: kept } = await admin.createKey({ orgId, label: "kept" });
      const from = async (key: string) => {
        const answer = await gateway.inject({
          method: "GET",
          url: "/v1/catalog",
          headers: { "x-api-key": key },
          remoteAddress: "10.0.0.8",
        });
        return {
          status: answer.statusCode,
          code: answer.json().errors?.[0]?.error_code as string | undefined,
        };
      };
      assert.equal((await from(paused.key)).status, 200);

      await admin.setKeyDisabled({ keyId: paused.keyId, disabled: true });
      clock.advance(1_001); // the resolver's cache holds a lookup at most 1 s, revoked or disabled alike
      for (let i = 0; i < 4; i += 1)
        assert.deepEqual(await from(paused.key), { status: 401, code: "EPX0002" });
      assert.equal((await from(kept.key)).status, 200, "a refused known key is no lockout failure");

      await admin.setKeyDisabled({ keyId: paused.keyId, disabled: false });
      clock.advance(1_001);
      assert.equal((await from(paused.key)).status, 200);
    });
  });
}
