import assert from "node:assert/strict";
import { userInfo } from "node:os";
import { after, describe, test } from "node:test";
import { createTestDatabases } from "@hub/store";
import { parseCommand } from "../src/parse-command.js";
import { UsageError } from "../src/usage-error.js";
import { jsonOf, runHub } from "./run-hub.js";

const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
after(() => databases.dispose());

test("hub admin usage and hub admin audit list parse into their requests", () => {
  assert.deepEqual(parseCommand(["admin", "usage", "--org", "org_a", "--hours", "6", "--json"]), {
    kind: "admin",
    json: true,
    request: { verb: "usage", orgId: "org_a", hours: 6 },
  });
  assert.deepEqual(
    parseCommand(["admin", "audit", "list", "--org", "org_a", "--limit", "5", "--after", "9"]),
    {
      kind: "admin",
      json: false,
      request: { verb: "audit.list", orgId: "org_a", limit: 5, after: "9" },
    },
  );
  assert.equal(parseCommand(["admin", "usage", "--help"]).kind, "help");
  for (const argv of [
    ["admin", "usage"],
    ["admin", "usage", "--org", "org_a", "--hours", "0"],
    ["admin", "usage", "--org", "org_a", "--hours", "169"],
    ["admin", "usage", "org_a"],
    ["admin", "audit"],
    ["admin", "audit", "list", "--limit", "501"],
  ]) {
    assert.throws(() => parseCommand(argv), UsageError, argv.join(" "));
  }
});

for (const { driver, skip } of databases.drivers) {
  describe(`hub admin usage and audit list on ${driver}`, { skip }, () => {
    test("the CLI's own changes are in the audit log as the CLI's user, and usage reads per hour", async () => {
      const target = await databases.prepareDataDir(driver);
      try {
        const org = jsonOf(
          await runHub(["admin", "org", "create", "--name", "Audited CLI", "--json"], target),
        );
        const orgId = org.organization.orgId as string;
        const key = jsonOf(await runHub(["admin", "key", "create", "--org", orgId, "--json"], target));

        const audit = jsonOf(await runHub(["admin", "audit", "list", "--org", orgId, "--json"], target));
        assert.deepEqual(
          audit.entries.map((e: Record<string, unknown>) => [e.action, e.source, e.actor]),
          [
            ["key.create", "cli", userInfo().username],
            ["organization.create", "cli", userInfo().username],
          ],
        );
        assert.equal(JSON.stringify(audit).includes(key.apiKey.key), false);
        const readable = await runHub(["admin", "audit", "list", "--org", orgId], target);
        assert.equal(readable.code, 0, readable.stderr);
        assert.match(readable.stdout, /key\.create/);

        const usage = jsonOf(await runHub(["admin", "usage", "--org", orgId, "--json"], target));
        assert.equal(usage.hours.length, 24);
        assert.deepEqual(usage.totals, {
          requests: { apiKey: 0, projectId: 0 },
          refusals: {},
          lockouts: 0,
          projectPool: { admitted: { reads: 0, quotes: 0, orders: 0 }, poolRefusals: 0, visitorRefusals: 0 },
        });
        const table = await runHub(["admin", "usage", "--org", orgId, "--hours", "2"], target);
        assert.equal(table.code, 0, table.stderr);
        assert.match(table.stdout, /^usage of org_/);
        assert.match(table.stdout, /\ntotal\s+0\s+0\s+0\s+-\n$/);

        const missing = await runHub(["admin", "usage", "--org", "org_missing", "--json"], target);
        assert.equal(missing.code, 1);
        assert.equal(jsonOf(missing).error.code, "organization-not-found");
      } finally {
        await target.dispose();
      }
    });
  });
}
