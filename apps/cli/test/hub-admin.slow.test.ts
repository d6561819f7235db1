import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { hashApiKey } from "@hub/contract";
import { createTestDatabases, openStore, type PreparedDataDir } from "@hub/store";
import { jsonOf, runHub } from "./run-hub.js";

const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
after(() => databases.dispose());

for (const { driver, skip } of databases.drivers) {
  describe(`hub admin end to end on ${driver}`, { skip }, () => {
    let target: PreparedDataDir;
    before(async () => {
      target = await databases.prepareDataDir(driver);
    });
    after(() => target?.dispose());

    test("an organization, its project and a key made through the CLI are what the gateway's lookups find", async () => {
      const org = jsonOf(await runHub(["admin", "org", "create", "--name", "Acme", "--json"], target));
      const orgId = org.organization.orgId as string;
      assert.match(orgId, /^org_[A-Za-z0-9]{24}$/);
      assert.equal(org.organization.name, "Acme");

      const project = jsonOf(
        await runHub(
          ["admin", "project", "create", "--org", orgId, "--origin", "https://App.Example.com:443", "--json"],
          target,
        ),
      );
      const projectId = project.project.projectId as string;
      assert.deepEqual(project.project.allowedOrigins, ["https://app.example.com"]);

      const origins = jsonOf(
        await runHub(
          [
            "admin",
            "project",
            "origins",
            "--project",
            projectId,
            "--origin",
            "http://127.0.0.1:5173",
            "--origin",
            "https://app.example.com",
            "--json",
          ],
          target,
        ),
      );
      assert.deepEqual(origins.project.allowedOrigins, ["http://127.0.0.1:5173", "https://app.example.com"]);

      const created = jsonOf(
        await runHub(["admin", "key", "create", "--org", orgId, "--expires", "30d", "--json"], target),
      );
      const { keyId, key, expiresAt, createdAt } = created.apiKey;
      assert.match(key, /^svc_sk_[A-Za-z0-9_-]{43}$/);
      assert.equal(Date.parse(expiresAt) - Date.parse(createdAt), 30 * 86400 * 1000);

      const revoked = jsonOf(await runHub(["admin", "key", "revoke", keyId, "--json"], target));
      assert.equal(revoked.apiKey.status, "revoked");

      const listed = jsonOf(await runHub(["admin", "key", "list", "--org", orgId, "--json"], target));
      assert.equal(listed.apiKeys.length, 1);
      assert.equal(listed.apiKeys[0].status, "revoked");
      assert.equal(JSON.stringify(listed).includes(key), false, "a listing never shows the key");

      const orgs = jsonOf(await runHub(["admin", "org", "list", "--json"], target));
      assert.ok(
        orgs.organizations.some(
          (o: { orgId: string; projectId: string }) => o.orgId === orgId && o.projectId === projectId,
        ),
      );

      const store = await openStore({
        dataDir: target.dataDir,
        databaseUrl: target.databaseUrl,
        migrate: false,
      });
      try {
        const lookup = await store.access.findKeyByHash(hashApiKey(key));
        assert.equal(lookup?.orgId, orgId);
        assert.ok(lookup?.revokedAt);
        assert.deepEqual(await store.access.findProjectByPublicId(projectId), {
          projectId,
          orgId,
          allowedOrigins: ["http://127.0.0.1:5173", "https://app.example.com"],
        });
      } finally {
        await store.close();
      }
    });

    test("a refusal prints one JSON error object and exits 1; a bad value exits 2", async () => {
      const missing = await runHub(
        ["admin", "key", "list", "--org", "org_000000000000000000000000", "--json"],
        target,
      );
      assert.equal(missing.code, 1);
      assert.equal(jsonOf(missing).error.code, "organization-not-found");
      const wildcard = await runHub(
        [
          "admin",
          "project",
          "create",
          "--org",
          "org_000000000000000000000000",
          "--origin",
          "https://*.example.com",
          "--json",
        ],
        target,
      );
      assert.equal(wildcard.code, 2);
      assert.match(jsonOf(wildcard).error.message, /wildcards are not allowed/);
    });
  });
}

describe("hub arguments", () => {
  const nowhere = { dataDir: "/nonexistent/hub-cli-test", databaseUrl: undefined };

  test("--help prints the usage of every verb and exits 0", async () => {
    const run = await runHub(["--help"], nowhere);
    assert.equal(run.code, 0);
    for (const verb of [
      "migrate",
      "admin org create",
      "admin project origins",
      "admin key revoke",
      "admin key disable",
      "admin key enable",
      "admin key list",
      "admin org disable",
      "admin member list",
      "admin member remove",
    ]) {
      assert.ok(run.stdout.includes(verb), verb);
    }
  });

  test("bad arguments print a clear message and the usage, and exit 2 without touching a database", async () => {
    const run = await runHub(["admin", "key", "create", "--org", "org_x", "--expires", "3 weeks"], nowhere);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--expires 3 weeks: write a number and a unit/);
    assert.match(run.stderr, /Usage: hub admin key create/);
    const json = await runHub(["admin", "org", "create", "--json"], nowhere);
    assert.equal(json.code, 2);
    assert.deepEqual(jsonOf(json), { error: { code: "usage", message: "--name is required" } });
  });
});
