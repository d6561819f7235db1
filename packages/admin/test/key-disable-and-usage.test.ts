import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { hashApiKey } from "@hub/contract";
import {
  type AccessStore,
  createAccessStore,
  createAuditStore,
  createUsageStore,
  createTestDatabases,
  type TestDatabase,
  type UsageStore,
} from "@hub/store";
import { type Admin, AdminRefusal, apiKeyStatus, createAdmin } from "../src/index.js";

const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
after(() => databases.dispose());

const refusedWith = (code: string) => (error: unknown) =>
  error instanceof AdminRefusal && error.code === code;

const DAY_MS = 24 * 3_600_000;

for (const { driver, skip } of databases.drivers) {
  describe(`key disable, enable and per-key usage on ${driver}`, { skip }, () => {
    let db: TestDatabase;
    let store: AccessStore;
    let usage: UsageStore;
    let cli: Admin;
    let dashboard: Admin;
    let nowMs = Date.parse("2026-03-31T15:30:00.000Z");
    const clock = { now: () => nowMs };
    before(async () => {
      db = await databases.open(driver);
      store = createAccessStore(db.sql);
      usage = createUsageStore(db.sql);
      const audit = createAuditStore(db.sql);
      cli = createAdmin({ store, usage, audit, clock, actor: { source: "cli", user: "ops" } });
      dashboard = createAdmin({
        store,
        usage,
        audit,
        clock,
        actor: { source: "dashboard", accountId: "acc_1", email: "ada@example.com" },
      });
    });
    after(() => db?.dispose());

    test("a disabled key reads as revoked to the gateway's lookup until it is enabled, and each change is audited with who did it", async () => {
      const { organization } = await cli.createOrganization({ name: "Pausing" });
      const orgId = organization.orgId;
      const { apiKey } = await cli.createKey({ orgId, label: "checkout" });
      const lookup = async () => {
        const found = await store.findKeyByHash(hashApiKey(apiKey.key));
        assert.ok(found);
        return apiKeyStatus(found, new Date(nowMs));
      };

      const disabled = await dashboard.setKeyDisabled({ keyId: apiKey.keyId, disabled: true, orgId });
      assert.equal(disabled.changed, true);
      assert.equal(disabled.apiKey.status, "disabled");
      assert.equal(disabled.apiKey.disabledAt, new Date(nowMs).toISOString());
      assert.equal(disabled.apiKey.revokedAt, null);
      assert.equal(await lookup(), "revoked", "the gateway refuses it as it refuses a revoked key");

      nowMs += 60_000;
      const again = await cli.setKeyDisabled({ keyId: apiKey.keyId, disabled: true });
      assert.equal(again.changed, false);
      assert.equal(
        again.apiKey.disabledAt,
        disabled.apiKey.disabledAt,
        "a second disable keeps the first time",
      );

      const enabled = await cli.setKeyDisabled({ keyId: apiKey.keyId, disabled: false });
      assert.equal(enabled.changed, true);
      assert.equal(enabled.apiKey.status, "active");
      assert.equal(enabled.apiKey.disabledAt, null);
      assert.equal(await lookup(), "active");
      assert.equal((await cli.setKeyDisabled({ keyId: apiKey.keyId, disabled: false })).changed, false);

      const { entries } = await cli.listAuditLog({ orgId });
      const switches = entries
        .filter((entry) => entry.action === "key.disable" || entry.action === "key.enable")
        .map(({ action, actor, source, target, detail }) => ({ action, actor, source, target, detail }));
      assert.deepEqual(switches, [
        {
          action: "key.enable",
          actor: "ops",
          source: "cli",
          target: apiKey.keyId,
          detail: { label: "checkout", displayPrefix: apiKey.displayPrefix },
        },
        {
          action: "key.disable",
          actor: "ada@example.com",
          source: "dashboard",
          target: apiKey.keyId,
          detail: { label: "checkout", displayPrefix: apiKey.displayPrefix },
        },
      ]);
    });

    test("a revoked key can be neither disabled nor enabled, and another organization's key is not found", async () => {
      const { organization } = await cli.createOrganization({ name: "Final" });
      const { organization: other } = await cli.createOrganization({ name: "Other" });
      const { apiKey } = await cli.createKey({ orgId: organization.orgId });
      await assert.rejects(
        dashboard.setKeyDisabled({ keyId: apiKey.keyId, disabled: true, orgId: other.orgId }),
        refusedWith("key-not-found"),
      );
      assert.equal((await cli.listKeys({ orgId: organization.orgId })).apiKeys[0]?.status, "active");
      await cli.revokeKey({ keyId: apiKey.keyId });
      for (const disabled of [true, false]) {
        await assert.rejects(
          cli.setKeyDisabled({ keyId: apiKey.keyId, disabled }),
          refusedWith("key-revoked"),
        );
      }
      await assert.rejects(
        cli.setKeyDisabled({ keyId: "key_000000000000000000000000", disabled: true }),
        refusedWith("key-not-found"),
      );
    });

    test("a key both disabled and expired reads expired: enabling it would not make it work", () => {
      const now = new Date("2026-03-01T00:00:00.000Z");
      const past = new Date("2026-02-01T00:00:00.000Z");
      assert.equal(apiKeyStatus({ expiresAt: past, revokedAt: null, disabledAt: past }, now), "expired");
      assert.equal(apiKeyStatus({ expiresAt: null, revokedAt: null, disabledAt: past }, now), "disabled");
      assert.equal(apiKeyStatus({ expiresAt: null, revokedAt: past, disabledAt: past }, now), "revoked");
    });

    test("per-key usage is summed per UTC day and route kind over the last 30 days, today last, zeros included", async () => {
      const { organization } = await cli.createOrganization({ name: "Busy" });
      const { organization: other } = await cli.createOrganization({ name: "Elsewhere" });
      const orgId = organization.orgId;
      const { apiKey: first } = await cli.createKey({ orgId });
      const { apiKey: second } = await cli.createKey({ orgId });
      const { apiKey: foreign } = await cli.createKey({ orgId: other.orgId });
      const minute = (daysAgo: number, hour: number) =>
        new Date(Math.floor(nowMs / DAY_MS) * DAY_MS - daysAgo * DAY_MS + hour * 3_600_000);
      const row = (
        keyId: string,
        at: Date,
        routeKind: "quote" | "order" | "status" | "other",
        count: number,
      ) => ({
        orgId: keyId === foreign.keyId ? other.orgId : orgId,
        keyId,
        minute: at,
        routeKind,
        count,
      });
      const orgRow = { orgId, minute: minute(0, 1), credentialKind: "api_key" as const, code: "", count: 1 };
      await usage.addUsage(
        [orgRow],
        [
          row(first.keyId, minute(0, 0), "quote", 3),
          row(first.keyId, minute(0, 23), "quote", 2),
          row(first.keyId, minute(0, 5), "status", 7),
          row(first.keyId, minute(29, 0), "order", 1),
          row(first.keyId, minute(30, 12), "order", 100),
          row(second.keyId, minute(2, 4), "other", 4),
          row(foreign.keyId, minute(0, 0), "quote", 50),
        ],
      );
      // A second write adds to the same days.
      await usage.addUsage(
        [{ ...orgRow, minute: minute(0, 2) }],
        [row(first.keyId, minute(0, 9), "quote", 1)],
      );

      const read = await dashboard.keyUsage({ orgId });
      assert.equal(read.days.length, 30);
      assert.equal(read.to, "2026-03-31");
      assert.equal(read.from, "2026-03-02");
      assert.deepEqual(
        read.keys.map((key) => key.keyId).sort(),
        [first.keyId, second.keyId].sort(),
        "only this organization's keys with calls",
      );
      const firstUsage = read.keys.find((key) => key.keyId === first.keyId);
      assert.ok(firstUsage);
      assert.deepEqual(
        firstUsage.totals,
        { quote: 6, order: 1, status: 7, other: 0 },
        "the 31st day back is out",
      );
      assert.deepEqual(firstUsage.days.at(-1), {
        day: "2026-03-31",
        quote: 6,
        order: 0,
        status: 7,
        other: 0,
      });
      assert.deepEqual(firstUsage.days[0], { day: "2026-03-02", quote: 0, order: 1, status: 0, other: 0 });
      assert.deepEqual(firstUsage.days[15], { day: "2026-03-17", quote: 0, order: 0, status: 0, other: 0 });
      const secondUsage = read.keys.find((key) => key.keyId === second.keyId);
      assert.deepEqual(secondUsage?.days[27], { day: "2026-03-29", quote: 0, order: 0, status: 0, other: 4 });

      await assert.rejects(dashboard.keyUsage({ orgId, days: 31 }), refusedWith("invalid-argument"));
      await assert.rejects(
        dashboard.keyUsage({ orgId: "org_000000000000000000000000" }),
        refusedWith("organization-not-found"),
      );
    });
  });
}
