import assert from "node:assert/strict";
import { randomInt } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { generateProjectId, hashApiKey } from "@hub/contract";
import {
  type AccessStore,
  createAccessStore,
  createTestDatabases,
  isUniqueViolation,
  loadMigrations,
  migrationsDir,
  runMigrations,
  type SqlClient,
  type TestDatabase,
} from "../src/index.js";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const id = (prefix: string) => prefix + Array.from({ length: 24 }, () => BASE62[randomInt(62)]).join("");
const hash = () => hashApiKey(id("svc_sk_"));
const at = (iso: string) => new Date(iso);

const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
after(() => databases.dispose());

for (const { driver, skip } of databases.drivers) {
  describe(`access store on ${driver}`, { skip }, () => {
    let db: TestDatabase;
    let store: AccessStore;
    before(async () => {
      db = await databases.open(driver);
      store = createAccessStore(db.sql);
    });
    after(() => db?.dispose());

    async function newOrg(name = "Acme") {
      return store.createOrganization({ orgId: id("org_"), name, at: new Date() });
    }

    async function newKey(orgId: string, fields: { expiresAt?: Date | null; keyHash?: string } = {}) {
      const record = await store.insertApiKey({
        keyId: id("key_"),
        orgId,
        keyHash: fields.keyHash ?? hash(),
        displayPrefix: "svc_sk_abcd",
        createdAt: at("2026-01-01T00:00:00.000Z"),
        expiresAt: fields.expiresAt ?? null,
      });
      assert.ok(record);
      return record;
    }

    test("running the migrations again applies nothing and keeps every table", async () => {
      const fresh = await databases.open(driver, { migrated: false });
      try {
        const migrations = loadMigrations(migrationsDir);
        const first = await runMigrations(fresh.sql, migrations);
        assert.deepEqual(
          first.applied,
          migrations.map((m) => m.version),
        );
        const second = await runMigrations(fresh.sql, migrations);
        assert.deepEqual(second.applied, []);
        assert.equal(second.current, migrations.length);
        const [row] = await fresh.sql.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM schema_migrations",
        );
        assert.equal(row?.n, migrations.length);
      } finally {
        await fresh.dispose();
      }
    });

    test("a database with every migration recorded unchanged is checked in one transaction", async () => {
      const fresh = await databases.open(driver, { migrated: false });
      try {
        const migrations = loadMigrations(migrationsDir);
        await runMigrations(fresh.sql, migrations.slice(0, -1));
        let transactions = 0;
        const counted: SqlClient = {
          ...fresh.sql,
          query: (text, params) => fresh.sql.query(text, params),
          exec: (text) => fresh.sql.exec(text),
          run: (name, text, params) => fresh.sql.run(name, text, params),
          close: () => fresh.sql.close(),
          transaction: (fn) => {
            transactions += 1;
            return fresh.sql.transaction(fn);
          },
        };
        const last = await runMigrations(counted, migrations);
        assert.deepEqual(last.applied, [migrations.length]);
        assert.equal(transactions, 1 + migrations.length);
        transactions = 0;
        const again = await runMigrations(counted, migrations);
        assert.deepEqual(again, { applied: [], current: migrations.length });
        assert.equal(transactions, 1);
      } finally {
        await fresh.dispose();
      }
    });

    test("concurrent migration runs apply each file exactly once", async () => {
      const fresh = await databases.open(driver, { migrated: false });
      try {
        const migrations = loadMigrations(migrationsDir);
        const clients =
          driver === "postgres"
            ? [fresh.sql, fresh.openAnotherClient(), fresh.openAnotherClient()]
            : [fresh.sql, fresh.sql, fresh.sql];
        const results = await Promise.all(clients.map((client) => runMigrations(client, migrations)));
        const appliedEverywhere = results.flatMap((r) => r.applied).sort((a, b) => a - b);
        assert.deepEqual(
          appliedEverywhere,
          migrations.map((m) => m.version),
        );
        const [row] = await fresh.sql.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM schema_migrations",
        );
        assert.equal(row?.n, migrations.length);
      } finally {
        await fresh.dispose();
      }
    });

    test("a migration edited after it was applied is refused", async () => {
      const fresh = await databases.open(driver, { migrated: false });
      try {
        const original = [{ version: 1, name: "one", sql: "CREATE TABLE one (x int)", checksum: "a" }];
        await runMigrations(fresh.sql, original);
        await assert.rejects(
          runMigrations(fresh.sql, [{ ...original[0]!, checksum: "b" }]),
          /was changed after it was applied/,
        );
      } finally {
        await fresh.dispose();
      }
    });

    test("a second key with the same hash is refused by the unique constraint", async () => {
      const org = await newOrg();
      const keyHash = hash();
      await newKey(org.orgId, { keyHash });
      const other = await newOrg();
      await assert.rejects(newKey(other.orgId, { keyHash }), (error) =>
        isUniqueViolation(error, "api_keys_hash_unique"),
      );
    });

    test("a key is found by its hash with its organization, and an unknown hash finds nothing", async () => {
      const org = await newOrg();
      const keyHash = hash();
      const key = await newKey(org.orgId, { keyHash });
      assert.deepEqual(await store.findKeyByHash(keyHash), {
        keyId: key.keyId,
        orgId: org.orgId,
        expiresAt: null,
        revokedAt: null,
      });
      assert.equal(await store.findKeyByHash(hash()), undefined);
    });

    test("revoked and expired keys are still found, with the dates that refuse them", async () => {
      const org = await newOrg();
      const expiredHash = hash();
      await newKey(org.orgId, { keyHash: expiredHash, expiresAt: at("2026-01-02T00:00:00.000Z") });
      const revokedHash = hash();
      const revoked = await newKey(org.orgId, { keyHash: revokedHash });
      const first = await store.revokeApiKey(revoked.keyId, at("2026-02-01T00:00:00.000Z"));
      const again = await store.revokeApiKey(revoked.keyId, at("2026-03-01T00:00:00.000Z"));
      assert.equal(first?.revokedAt?.toISOString(), "2026-02-01T00:00:00.000Z");
      assert.equal(
        again?.revokedAt?.toISOString(),
        "2026-02-01T00:00:00.000Z",
        "a second revoke keeps the first time",
      );
      assert.equal(
        (await store.findKeyByHash(expiredHash))?.expiresAt?.toISOString(),
        "2026-01-02T00:00:00.000Z",
      );
      assert.equal(
        (await store.findKeyByHash(revokedHash))?.revokedAt?.toISOString(),
        "2026-02-01T00:00:00.000Z",
      );
      assert.equal(await store.revokeApiKey(id("key_"), new Date()), undefined);
    });

    test("a key for an unknown organization is not created", async () => {
      const record = await store.insertApiKey({
        keyId: id("key_"),
        orgId: id("org_"),
        keyHash: hash(),
        displayPrefix: "svc_sk_abcd",
        createdAt: new Date(),
        expiresAt: null,
      });
      assert.equal(record, undefined);
    });

    test("a project is found by its public id with its allowed origins, empty by default", async () => {
      const org = await newOrg();
      const projectId = generateProjectId();
      const outcome = await store.createProject({ projectId, orgId: org.orgId, origins: [], at: new Date() });
      assert.equal(outcome.created, true);
      assert.deepEqual(await store.findProjectByPublicId(projectId), {
        projectId,
        orgId: org.orgId,
        allowedOrigins: [],
      });
      assert.equal(await store.findProjectByPublicId(generateProjectId()), undefined);
      assert.equal((await store.getOrganization(org.orgId))?.projectId, projectId);
    });

    test("an organization has at most one project", async () => {
      const org = await newOrg();
      const first = generateProjectId();
      await store.createProject({ projectId: first, orgId: org.orgId, origins: [], at: new Date() });
      const second = await store.createProject({
        projectId: generateProjectId(),
        orgId: org.orgId,
        origins: [],
        at: new Date(),
      });
      assert.deepEqual(second, { created: false, reason: "organization-has-project", projectId: first });
      const missing = await store.createProject({
        projectId: generateProjectId(),
        orgId: id("org_"),
        origins: [],
        at: new Date(),
      });
      assert.deepEqual(missing, { created: false, reason: "organization-not-found" });
    });

    test("allowed origins are rows: replaced as a set, each origin once per project", async () => {
      const org = await newOrg();
      const projectId = generateProjectId();
      await store.createProject({
        projectId,
        orgId: org.orgId,
        origins: ["https://b.example", "https://a.example", "https://a.example"],
        at: new Date(),
      });
      assert.deepEqual((await store.findProjectByPublicId(projectId))?.allowedOrigins, [
        "https://a.example",
        "https://b.example",
      ]);
      const replaced = await store.setProjectOrigins(projectId, [
        "https://b.example",
        "http://127.0.0.1:5173",
      ]);
      assert.deepEqual(replaced?.allowedOrigins, ["http://127.0.0.1:5173", "https://b.example"]);
      const [rows] = await db.sql.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM project_origins WHERE project_id = $1",
        [projectId],
      );
      assert.equal(rows?.n, 2);
      assert.equal(await store.addProjectOrigin(projectId, "https://b.example"), true);
      assert.equal((await store.findProjectByPublicId(projectId))?.allowedOrigins.length, 2);
      assert.equal(await store.setProjectOrigins(generateProjectId(), []), undefined);
      await assert.rejects(
        db.sql.query("INSERT INTO project_origins (project_id, origin) VALUES ($1, 'https://*.example')", [
          projectId,
        ]),
      );
    });

    test("markKeysUsed stamps many keys in one call and never moves last use backwards", async () => {
      const org = await newOrg();
      const a = await newKey(org.orgId);
      const b = await newKey(org.orgId);
      const untouched = await newKey(org.orgId);
      await store.markKeysUsed([a.keyId, b.keyId], at("2026-05-01T00:00:00.000Z"));
      await store.markKeysUsed([a.keyId], at("2026-04-01T00:00:00.000Z"));
      await store.markKeysUsed([], new Date());
      const byId = new Map((await store.listApiKeys(org.orgId)).map((k) => [k.keyId, k]));
      assert.equal(byId.get(a.keyId)?.lastUsedAt?.toISOString(), "2026-05-01T00:00:00.000Z");
      assert.equal(byId.get(b.keyId)?.lastUsedAt?.toISOString(), "2026-05-01T00:00:00.000Z");
      assert.equal(byId.get(untouched.keyId)?.lastUsedAt, null);
    });

    test("organizations are listed in pages in creation order", async () => {
      const created = [];
      for (let i = 0; i < 3; i++) {
        created.push(
          await store.createOrganization({
            orgId: id("org_"),
            name: `page ${i}`,
            at: new Date(Date.UTC(2030, 0, 1, 0, 0, i)),
          }),
        );
      }
      const firstPage = await store.listOrganizations({ limit: 1, afterOrgId: created[0]!.orgId });
      assert.deepEqual(
        firstPage.map((o) => o.orgId),
        [created[1]!.orgId],
      );
      const rest = await store.listOrganizations({ limit: 10, afterOrgId: created[1]!.orgId });
      assert.deepEqual(
        rest.map((o) => o.orgId),
        [created[2]!.orgId],
      );
    });

    test("development access is claimed once: a second claim returns the first organization", async () => {
      const fresh = await databases.open(driver);
      try {
        const freshStore = createAccessStore(fresh.sql);
        const claim = () =>
          freshStore.claimDevelopmentAccess({
            orgId: id("org_"),
            name: "Development",
            projectId: generateProjectId(),
            origins: ["http://127.0.0.1:8081"],
            at: new Date(),
          });
        const results = await Promise.all([claim(), claim(), claim()]);
        assert.equal(results.filter((r) => r.created).length, 1);
        const winner = results.find((r) => r.created)!;
        for (const r of results)
          assert.deepEqual(
            { orgId: r.orgId, projectId: r.projectId },
            { orgId: winner.orgId, projectId: winner.projectId },
          );
        const [orgs] = await fresh.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM organizations");
        assert.equal(orgs?.n, 1, "the losing claims leave no organization behind");
        assert.deepEqual(await freshStore.findDevelopmentAccess(), {
          orgId: winner.orgId,
          projectId: winner.projectId,
        });
      } finally {
        await fresh.dispose();
      }
    });
  });
}
