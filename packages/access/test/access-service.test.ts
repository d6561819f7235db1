import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { hashApiKey } from "@hub/contract";
import { createAccessStore, createTestDatabases, type TestDatabase } from "@hub/store";
import { AccessError, type AccessService, apiKeyStatus, createAccessService } from "../src/index.js";
import { readApiKeyRows } from "./store/api-key-rows.js";

const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
after(() => databases.dispose());

const refusedWith = (code: string) => (error: unknown) => error instanceof AccessError && error.code === code;

for (const { driver, skip } of databases.drivers) {
  describe(`access service on ${driver}`, { skip }, () => {
    let db: TestDatabase;
    let access: AccessService;
    let clock = new Date("2026-03-01T00:00:00.000Z");
    before(async () => {
      db = await databases.open(driver);
      access = createAccessService({ store: createAccessStore(db.sql), now: () => clock });
    });
    after(() => db?.dispose());

    test("a key's plaintext is returned once and stored nowhere; listings show only its prefix", async () => {
      const org = await access.createOrganization("Acme");
      const created = await access.createApiKey(org.orgId);
      assert.match(created.key, /^svc_sk_[A-Za-z0-9_-]{43}$/);
      assert.equal(created.displayPrefix, created.key.slice(0, 11));
      const listed = await access.listApiKeys(org.orgId);
      assert.equal(listed.length, 1);
      assert.equal(JSON.stringify(listed).includes(created.key), false);
      assert.equal(JSON.stringify(listed).includes(hashApiKey(created.key)), false);
      const rows = await readApiKeyRows(db.sql, org.orgId);
      assert.equal(JSON.stringify(rows).includes(created.key), false, "no column holds the plaintext");
      assert.equal(listed[0]?.status, "active");
    });

    test("a revoked key is refused by the gateway's lookup, and the revoke is immediate", async () => {
      const store = createAccessStore(db.sql);
      const org = await access.createOrganization("Revokes");
      const created = await access.createApiKey(org.orgId);
      const before = await store.findKeyByHash(hashApiKey(created.key));
      assert.equal(before && apiKeyStatus(before, clock), "active");
      const revoked = await access.revokeApiKey(created.keyId);
      assert.equal(revoked.status, "revoked");
      const after = await store.findKeyByHash(hashApiKey(created.key));
      assert.equal(after && apiKeyStatus(after, clock), "revoked");
      await assert.rejects(access.revokeApiKey("key_000000000000000000000000"), refusedWith("key-not-found"));
    });

    test("a key with a lifetime expires at creation plus its lifetime", async () => {
      const org = await access.createOrganization("Expiring");
      const created = await access.createApiKey(org.orgId, { expiresInSeconds: 3600 });
      assert.equal(created.expiresAt, "2026-03-01T01:00:00.000Z");
      const saved = clock;
      clock = new Date("2026-03-01T01:00:00.000Z");
      try {
        assert.equal((await access.listApiKeys(org.orgId))[0]?.status, "expired");
      } finally {
        clock = saved;
      }
      for (const expiresInSeconds of [0, -1, 1.5, 11 * 365 * 24 * 3600]) {
        await assert.rejects(
          access.createApiKey(org.orgId, { expiresInSeconds }),
          refusedWith("invalid-argument"),
        );
      }
    });

    test("keys, projects and listings for an unknown organization are refused by name", async () => {
      const missing = "org_000000000000000000000000";
      await assert.rejects(access.createApiKey(missing), refusedWith("organization-not-found"));
      await assert.rejects(access.createProject(missing, []), refusedWith("organization-not-found"));
      await assert.rejects(access.listApiKeys(missing), refusedWith("organization-not-found"));
      await assert.rejects(
        access.setProjectOrigins("proj_000000000000000000000000", []),
        refusedWith("project-not-found"),
      );
      await assert.rejects(access.createOrganization("   "), refusedWith("invalid-argument"));
    });

    test("a project's origins are normalised, deduplicated, and an invalid one changes nothing", async () => {
      const org = await access.createOrganization("Origins");
      const project = await access.createProject(org.orgId, [
        "HTTPS://App.Example.com:443/",
        "https://app.example.com",
      ]);
      assert.deepEqual(project.allowedOrigins, ["https://app.example.com"]);
      await assert.rejects(
        access.setProjectOrigins(project.projectId, ["https://ok.example", "https://*.example"]),
        refusedWith("invalid-origin"),
      );
      assert.deepEqual((await access.getProject(project.projectId))?.allowedOrigins, [
        "https://app.example.com",
      ]);
      await assert.rejects(access.createProject(org.orgId, []), refusedWith("organization-has-project"));
      assert.equal((await access.getOrganization(org.orgId))?.projectId, project.projectId);
    });

    test("development access keeps its organization, project and still-valid key across restarts", async () => {
      const fresh = await databases.open(driver);
      try {
        const service = createAccessService({ store: createAccessStore(fresh.sql), now: () => clock });
        const first = await service.ensureDevelopmentAccess({ allowedOrigin: "http://127.0.0.1:8081" });
        assert.equal(first.keyCreated, true);
        const second = await service.ensureDevelopmentAccess({
          allowedOrigin: "http://127.0.0.1:8081",
          previousKey: first.apiKey,
        });
        assert.deepEqual(second, { ...first, keyCreated: false });
        await service.revokeApiKey(first.keyId);
        const third = await service.ensureDevelopmentAccess({
          allowedOrigin: "http://localhost:8081/",
          previousKey: first.apiKey,
        });
        assert.equal(third.keyCreated, true);
        assert.notEqual(third.apiKey, first.apiKey);
        assert.equal(third.orgId, first.orgId);
        assert.equal(third.projectId, first.projectId);
        assert.equal(third.allowedOrigin, "http://localhost:8081");
        assert.deepEqual((await service.getProject(first.projectId))?.allowedOrigins, [
          "http://127.0.0.1:8081",
          "http://localhost:8081",
        ]);
        const foreign = await service.createApiKey((await service.createOrganization("Other")).orgId);
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
        const service = createAccessService({
          store: createAccessStore(fresh.sql),
          now: () => {
            tick += 1000;
            return new Date(tick);
          },
        });
        const names = ["one", "two", "three"];
        for (const name of names) await service.createOrganization(name);
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
