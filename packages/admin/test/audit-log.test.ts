import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { hashApiKey } from "@hub/contract";
import {
  type AuditStore,
  createAccessStore,
  createAuditStore,
  createDashboardStore,
  createTestDatabases,
  createUsageStore,
  type TestDatabase,
} from "@hub/store";
import { type Admin, AdminRefusal, createAdmin } from "../src/index.js";
import { readAuditRows } from "./store/audit-rows.js";

const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
after(() => databases.dispose());

const refusedWith = (code: string) => (error: unknown) =>
  error instanceof AdminRefusal && error.code === code;

for (const { driver, skip } of databases.drivers) {
  describe(`the admin audit log on ${driver}`, { skip }, () => {
    let db: TestDatabase;
    let audit: AuditStore;
    let cli: Admin;
    let dashboard: Admin;
    const clock = { now: () => Date.parse("2026-03-02T08:00:00.000Z") };
    before(async () => {
      db = await databases.open(driver);
      audit = createAuditStore(db.sql);
      const store = createAccessStore(db.sql);
      const usage = createUsageStore(db.sql);
      const accounts = createDashboardStore(db.sql);
      cli = createAdmin({ store, accounts, audit, usage, clock, actor: { source: "cli", user: "ops" } });
      dashboard = createAdmin({
        store,
        accounts,
        audit,
        usage,
        clock,
        actor: { source: "dashboard", accountId: "acc_1", email: "ada@example.com" },
      });
    });
    after(() => db?.dispose());

    test("each admin verb that changes something writes one entry with its actor and source", async () => {
      const { organization } = await cli.createOrganization({ name: "Audited" });
      const orgId = organization.orgId;
      const { project } = await dashboard.createProject({ orgId, origins: ["https://a.example"] });
      await dashboard.setProjectOrigins({ projectId: project.projectId, origins: ["https://b.example"] });
      await dashboard.addProjectOrigin({ projectId: project.projectId, origin: "https://c.example" });
      await dashboard.removeProjectOrigin({ projectId: project.projectId, origin: "https://b.example" });
      const { apiKey } = await dashboard.createKey({ orgId, label: "CI" });
      await cli.revokeKey({ keyId: apiKey.keyId });
      const { invite } = await cli.inviteMember({ orgId, email: "bo@example.com" });
      await cli.listKeys({ orgId });
      await dashboard.showOrganization({ orgId });

      const { entries } = await cli.listAuditLog({ orgId });
      assert.deepEqual(
        entries.map((e) => [e.action, e.source, e.actor, e.actorAccountId, e.target]),
        [
          ["member.invite", "cli", "ops", null, invite.accountId],
          ["key.revoke", "cli", "ops", null, apiKey.keyId],
          ["key.create", "dashboard", "ada@example.com", "acc_1", apiKey.keyId],
          ["project.remove-origin", "dashboard", "ada@example.com", "acc_1", project.projectId],
          ["project.add-origin", "dashboard", "ada@example.com", "acc_1", project.projectId],
          ["project.set-origins", "dashboard", "ada@example.com", "acc_1", project.projectId],
          ["project.create", "dashboard", "ada@example.com", "acc_1", project.projectId],
          ["organization.create", "cli", "ops", null, orgId],
        ],
      );
      assert.ok(entries.every((e) => e.orgId === orgId && e.at === "2026-03-02T08:00:00.000Z"));
      assert.deepEqual(entries[3]?.detail, { allowedOrigins: ["https://c.example"] });
      assert.deepEqual(entries[2]?.detail, {
        label: "CI",
        displayPrefix: apiKey.displayPrefix,
        expiresAt: null,
      });
      assert.deepEqual(entries[0]?.detail, { email: "bo@example.com", expiresAt: invite.expiresAt });
      assert.equal(JSON.stringify(entries).includes(invite.token), false, "an invite's token is not logged");

      await cli.inviteOperator({ email: "op@example.com" });
      const [operatorInvite] = (await cli.listAuditLog({ limit: 1 })).entries;
      assert.deepEqual([operatorInvite?.action, operatorInvite?.orgId], ["operator.invite", null]);
    });

    test("no audit entry holds a key's plaintext or hash", async () => {
      const { organization } = await cli.createOrganization({ name: "Secret keeper" });
      const { apiKey } = await dashboard.createKey({ orgId: organization.orgId, expiresInSeconds: 60 });
      await dashboard.revokeKey({ keyId: apiKey.keyId });
      const rows = await readAuditRows(db.sql, organization.orgId);
      assert.equal(rows.length, 3);
      const stored = JSON.stringify(rows);
      assert.equal(stored.includes(apiKey.key), false, "no column holds the plaintext");
      assert.equal(stored.includes(hashApiKey(apiKey.key)), false, "no column holds the hash");
      assert.equal(stored.includes(apiKey.key.slice(0, 20)), false, "nor more of the key than its prefix");
    });

    test("a refused verb changed nothing and writes no entry", async () => {
      const { organization } = await cli.createOrganization({ name: "Refusals" });
      const orgId = organization.orgId;
      await assert.rejects(
        cli.createKey({ orgId: "org_missing", expiresInSeconds: 60 }),
        refusedWith("organization-not-found"),
      );
      await assert.rejects(
        cli.revokeKey({ keyId: "key_000000000000000000000000" }),
        refusedWith("key-not-found"),
      );
      await cli.createProject({ orgId, origins: [] });
      await assert.rejects(
        cli.createProject({ orgId, origins: [] }),
        refusedWith("organization-has-project"),
      );
      await assert.rejects(cli.createOrganization({ name: " " }), refusedWith("invalid-argument"));
      const { entries } = await cli.listAuditLog({ orgId });
      assert.deepEqual(
        entries.map((e) => e.action),
        ["project.create", "organization.create"],
      );
      const missing = await cli.listAuditLog({ orgId: "org_missing" });
      assert.deepEqual(missing.entries, []);
    });

    test("the audit log lists newest first, and the cursor continues with older entries only", async () => {
      const names = ["One", "Two", "Three", "Four", "Five"];
      const created = [];
      for (const name of names) created.push((await cli.createOrganization({ name })).organization.orgId);
      const first = await cli.listAuditLog({ limit: 2 });
      assert.deepEqual(
        first.entries.map((e) => e.orgId),
        [created[4], created[3]],
      );
      assert.equal(first.next, first.entries[1]?.id);
      const second = await cli.listAuditLog({ limit: 2, after: first.next ?? undefined });
      assert.deepEqual(
        second.entries.map((e) => e.orgId),
        [created[2], created[1]],
      );
      const ids = [...first.entries, ...second.entries].map((e) => BigInt(e.id));
      assert.deepEqual(
        ids,
        [...ids].sort((a, b) => (a > b ? -1 : 1)),
      );
      await assert.rejects(cli.listAuditLog({ after: "x1" }), refusedWith("invalid-argument"));
      await assert.rejects(cli.listAuditLog({ limit: 0 }), refusedWith("invalid-argument"));
    });

    test("usage is refused for an organization that does not exist, and is all zeros for one with no calls", async () => {
      await assert.rejects(cli.usage({ orgId: "org_missing" }), refusedWith("organization-not-found"));
      const { organization } = await cli.createOrganization({ name: "Quiet" });
      await assert.rejects(
        cli.usage({ orgId: organization.orgId, hours: 0 }),
        refusedWith("invalid-argument"),
      );
      const read = await cli.usage({ orgId: organization.orgId, hours: 3 });
      assert.deepEqual(
        read.hours.map((h) => h.hour),
        ["2026-03-02T06:00:00.000Z", "2026-03-02T07:00:00.000Z", "2026-03-02T08:00:00.000Z"],
      );
      assert.deepEqual(read.totals, {
        requests: { apiKey: 0, projectId: 0 },
        refusals: {},
        lockouts: 0,
        projectPool: { admitted: { reads: 0, quotes: 0, orders: 0 }, poolRefusals: 0, visitorRefusals: 0 },
      });
    });
  });
}
