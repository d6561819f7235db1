import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { hashApiKey } from "@hub/contract";
import { createAccessStore, createTestDatabases, type TestDatabase } from "@hub/store";
import { type Admin, AdminRefusal, apiKeyStatus, createAdmin } from "../src/index.js";
import { readApiKeyRows } from "./store/api-key-rows.js";

const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
after(() => databases.dispose());

const refusedWith = (code: string) => (error: unknown) =>
  error instanceof AdminRefusal && error.code === code;

for (const { driver, skip } of databases.drivers) {
  describe(`organization, project and key verbs on ${driver}`, { skip }, () => {
    let db: TestDatabase;
    let admin: Admin;
    let clock = new Date("2026-03-01T00:00:00.000Z");
    before(async () => {
      db = await databases.open(driver);
      admin = createAdmin({ store: createAccessStore(db.sql), clock: { now: () => clock.getTime() } });
    });
    after(() => db?.dispose());

    test("a key's plaintext is returned once and stored nowhere; listings show only its prefix", async () => {
      const { organization: org } = await admin.createOrganization({ name: "Acme" });
      const { apiKey: created } = await admin.createKey({ orgId: org.orgId });
      assert.match(created.key, /^svc_sk_[A-Za-z0-9_-]{43}$/);
      assert.equal(created.displayPrefix, created.key.slice(0, 11));
      const listed = (await admin.listKeys({ orgId: org.orgId })).apiKeys;
      assert.equal(listed.length, 1);
      assert.equal(JSON.stringify(listed).includes(created.key), false);
      assert.equal(JSON.stringify(listed).includes(hashApiKey(created.key)), false);
      const rows = await readApiKeyRows(db.sql, org.orgId);
      assert.equal(JSON.stringify(rows).includes(created.key), false, "no column holds the plaintext");
      assert.equal(listed[0]?.status, "active");
    });

    test("a revoked key is refused by the gateway's lookup, and the revoke is immediate", async () => {
      const store = createAccessStore(db.sql);
      const { organization: org } = await admin.createOrganization({ name: "Revokes" });
      const { apiKey: created } = await admin.createKey({ orgId: org.orgId });
      const before = await store.findKeyByHash(hashApiKey(created.key));
      assert.equal(before && apiKeyStatus(before, clock), "active");
      const { apiKey: revoked } = await admin.revokeKey({ keyId: created.keyId });
      assert.equal(revoked.status, "revoked");
      const after = await store.findKeyByHash(hashApiKey(created.key));
      assert.equal(after && apiKeyStatus(after, clock), "revoked");
      await assert.rejects(
        admin.revokeKey({ keyId: "key_000000000000000000000000" }),
        refusedWith("key-not-found"),
      );
    });

    test("a key with a lifetime expires at creation plus its lifetime", async () => {
      const { organization: org } = await admin.createOrganization({ name: "Expiring" });
      const { apiKey: created } = await admin.createKey({ orgId: org.orgId, expiresInSeconds: 3600 });
      assert.equal(created.expiresAt, "2026-03-01T01:00:00.000Z");
      const saved = clock;
      clock = new Date("2026-03-01T01:00:00.000Z");
      try {
        assert.equal((await admin.listKeys({ orgId: org.orgId })).apiKeys[0]?.status, "expired");
      } finally {
        clock = saved;
      }
      for (const expiresInSeconds of [0, -1, 1.5, 11 * 365 * 24 * 3600]) {
        await assert.rejects(
          admin.createKey({ orgId: org.orgId, expiresInSeconds }),
          refusedWith("invalid-argument"),
        );
      }
    });

    test("keys, projects and listings for an unknown organization are refused by name", async () => {
      const missing = "org_000000000000000000000000";
      await assert.rejects(admin.createKey({ orgId: missing }), refusedWith("organization-not-found"));
      await assert.rejects(
        admin.createProject({ orgId: missing, origins: [] }),
        refusedWith("organization-not-found"),
      );
      await assert.rejects(admin.listKeys({ orgId: missing }), refusedWith("organization-not-found"));
      await assert.rejects(
        admin.setProjectOrigins({ projectId: "proj_000000000000000000000000", origins: [] }),
        refusedWith("project-not-found"),
      );
      await assert.rejects(admin.createOrganization({ name: "   " }), refusedWith("invalid-argument"));
    });

    test("a project's origins are normalised, deduplicated, and an invalid one changes nothing", async () => {
      const { organization: org } = await admin.createOrganization({ name: "Origins" });
      const { project } = await admin.createProject({
        orgId: org.orgId,
        origins: ["HTTPS://App.Example.com:443/", "https://app.example.com"],
      });
      assert.deepEqual(project.allowedOrigins, ["https://app.example.com"]);
      await assert.rejects(
        admin.setProjectOrigins({
          projectId: project.projectId,
          origins: ["https://ok.example", "https://*.example"],
        }),
        refusedWith("invalid-origin"),
      );
      assert.deepEqual((await admin.showProject({ projectId: project.projectId })).project.allowedOrigins, [
        "https://app.example.com",
      ]);
      await assert.rejects(
        admin.createProject({ orgId: org.orgId, origins: [] }),
        refusedWith("organization-has-project"),
      );
      assert.equal(
        (await admin.showOrganization({ orgId: org.orgId })).organization.projectId,
        project.projectId,
      );
    });

    test("an organization is shown with its project, or none before it has one; unknown ids are refused by name", async () => {
      const { organization: org } = await admin.createOrganization({ name: "Shown" });
      assert.deepEqual(await admin.showOrganization({ orgId: org.orgId }), {
        organization: org,
        project: null,
      });
      const { project } = await admin.createProject({ orgId: org.orgId, origins: ["https://shown.example"] });
      assert.deepEqual(await admin.showOrganization({ orgId: org.orgId }), {
        organization: { ...org, projectId: project.projectId },
        project,
      });
      assert.deepEqual(await admin.showProject({ projectId: project.projectId }), { project });
      await assert.rejects(
        admin.showOrganization({ orgId: "org_000000000000000000000000" }),
        refusedWith("organization-not-found"),
      );
      await assert.rejects(
        admin.showProject({ projectId: "proj_000000000000000000000000" }),
        refusedWith("project-not-found"),
      );
    });

    test("development access keeps its organization, project and still-valid key across restarts", async () => {
      const fresh = await databases.open(driver);
      try {
        const service = createAdmin({
          store: createAccessStore(fresh.sql),
          clock: { now: () => clock.getTime() },
        });
        const first = await service.ensureDevelopmentAccess({ allowedOrigin: "http://127.0.0.1:8081" });
        assert.equal(first.keyCreated, true);
        const second = await service.ensureDevelopmentAccess({
          allowedOrigin: "http://127.0.0.1:8081",
          previousKey: first.apiKey,
        });
        assert.deepEqual(second, { ...first, keyCreated: false });
        await service.revokeKey({ keyId: first.keyId });
        const third = await service.ensureDevelopmentAccess({
          allowedOrigin: "http://localhost:8081/",
          previousKey: first.apiKey,
        });
        assert.equal(third.keyCreated, true);
        assert.notEqual(third.apiKey, first.apiKey);
        assert.equal(third.orgId, first.orgId);
        assert.equal(third.projectId, first.projectId);
        assert.equal(third.allowedOrigin, "http://localhost:8081");
        assert.deepEqual((await service.showProject({ projectId: first.projectId })).project.allowedOrigins, [
          "http://127.0.0.1:8081",
          "http://localhost:8081",
        ]);
        const other = (await service.createOrganization({ name: "Other" })).organization;
        const { apiKey: foreign } = await service.createKey({ orgId: other.orgId });
        const fourth = await service.ensureDevelopmentAccess({
          allowedOrigin: "http://127.0.0.1:8081",
          previousKey: foreign.key,
        });
        assert.equal(fourth.keyCreated, true, "a key of another organization is not the development key");
      } finally {
        await fresh.dispose();
      }
    });

    test("organizations are listed page by page with a cursor", async () => {
      const fresh = await databases.open(driver);
      try {
        // Listed by (created_at, id): a clock one second apart per call gives the creation order
        // (two creations in the same millisecond are ordered by their random ids).
        let tick = Date.parse("2026-01-01T00:00:00Z");
        const service = createAdmin({
          store: createAccessStore(fresh.sql),
          clock: {
            now: () => {
              tick += 1000;
              return tick;
            },
          },
        });
        const names = ["one", "two", "three"];
        for (const name of names) await service.createOrganization({ name });
        const first = await service.listOrganizations({ limit: 2 });
        assert.deepEqual(
          first.organizations.map((o) => o.name),
          ["one", "two"],
        );
        assert.ok(first.next);
        const second = await service.listOrganizations({ limit: 2, after: first.next });
        assert.deepEqual(
          second.organizations.map((o) => o.name),
          ["three"],
        );
        assert.equal(second.next, null);
      } finally {
        await fresh.dispose();
      }
    });
  });
}
