import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { createTestDatabases, openStore } from "@hub/store";
import { runCli } from "../src/run-cli.js";

const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
after(() => databases.dispose());

async function cli(args: string[], target: { dataDir: string; databaseUrl?: string | undefined }) {
  let stdout = "";
  let stderr = "";
  const code = await runCli(
    args,
    {
      dataDir: target.dataDir,
      ...(target.databaseUrl ? { databaseUrl: target.databaseUrl } : {}),
      dashboardUrl: "https://dashboard.example",
    },
    { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) },
  );
  return { code, stdout, stderr };
}

for (const { driver, skip } of databases.drivers) {
  describe(`hub admin member|operator invite on ${driver}`, { skip }, () => {
    test("member invite --json prints one object with a one-time dashboard link valid 24 hours", async (t) => {
      const target = await databases.prepareDataDir(driver);
      t.after(() => target.dispose());
      const store = await openStore({ dataDir: target.dataDir, databaseUrl: target.databaseUrl });
      const orgId = (
        await (
          await import("@hub/admin")
        )
          .createAdmin({ store: store.access })
          .createOrganization({ name: "Invited" })
      ).organization.orgId;
      await store.close();

      const run = await cli(
        ["admin", "member", "invite", "--org", orgId, "--email", " Ana@Example.com ", "--json"],
        target,
      );
      assert.equal(run.code, 0, run.stdout + run.stderr);
      const lines = run.stdout.trim().split("\n");
      assert.equal(lines.length, 1);
      const result = JSON.parse(lines[0]!);
      assert.equal(result.invite.email, "ana@example.com");
      assert.equal(result.invite.role, "member");
      assert.equal(result.invite.orgId, orgId);
      assert.match(result.link, /^https:\/\/dashboard\.example\/sign-in\/[A-Za-z0-9_-]{43}$/);
      const hours = (Date.parse(result.invite.expiresAt) - Date.now()) / 3600_000;
      assert.ok(hours > 23.9 && hours <= 24, `valid ${hours} h`);

      const text = await cli(["admin", "operator", "invite", "--email", "ops@example.com"], target);
      assert.equal(text.code, 0, text.stderr);
      assert.match(text.stdout, /operator ops@example\.com: one-time sign-in link/);
      assert.match(text.stdout, /https:\/\/dashboard\.example\/sign-in\//);
    });

    test("an invite for a missing organization, a bad email, or an email whose account has another role is refused; a repeated invite makes a new link", async (t) => {
      const target = await databases.prepareDataDir(driver);
      t.after(() => target.dispose());
      const missing = await cli(
        ["admin", "member", "invite", "--org", "org_nope", "--email", "a@example.com", "--json"],
        target,
      );
      assert.equal(missing.code, 1);
      assert.equal(JSON.parse(missing.stdout).error.code, "organization-not-found");
      const bad = await cli(["admin", "operator", "invite", "--email", "not an email", "--json"], target);
      assert.equal(JSON.parse(bad.stdout).error.code, "invalid-email");
      const first = await cli(["admin", "operator", "invite", "--email", "x@example.com", "--json"], target);
      const again = await cli(["admin", "operator", "invite", "--email", "x@example.com", "--json"], target);
      assert.equal(again.code, 0);
      assert.notEqual(JSON.parse(again.stdout).link, JSON.parse(first.stdout).link);
      const store = await openStore({ dataDir: target.dataDir, databaseUrl: target.databaseUrl });
      const { createAdmin } = await import("@hub/admin");
      const orgId = (await createAdmin({ store: store.access }).createOrganization({ name: "Other" }))
        .organization.orgId;
      await store.close();
      const taken = await cli(
        ["admin", "member", "invite", "--org", orgId, "--email", "x@example.com", "--json"],
        target,
      );
      assert.equal(taken.code, 1);
      assert.equal(JSON.parse(taken.stdout).error.code, "account-exists");
      const missingEmail = await cli(["admin", "member", "invite", "--org", "org_x"], target);
      assert.equal(missingEmail.code, 2);
    });
  });
}
