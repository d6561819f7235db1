import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { createAdmin } from "@hub/admin";
import { hashApiKey } from "@hub/contract";
import { createTestDatabases, openStore, type PreparedDataDir } from "@hub/store";
import { runCli } from "../src/run-cli.js";

const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
after(() => databases.dispose());

async function cli(args: string[], target: PreparedDataDir) {
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

// biome-ignore lint/suspicious/noExplicitAny: the tests read the CLI output as loose JSON
const jsonOf = (run: { stdout: string; stderr: string }): Record<string, any> => {
  const lines = run.stdout.trim().split("\n");
  assert.equal(lines.length, 1, run.stdout + run.stderr);
  return JSON.parse(lines[0] as string);
};

/** Runs `use` on the data dir's store, closed again before the CLI opens it. */
async function withStore<T>(
  target: PreparedDataDir,
  use: (store: Awaited<ReturnType<typeof openStore>>) => Promise<T>,
): Promise<T> {
  const store = await openStore({ dataDir: target.dataDir, databaseUrl: target.databaseUrl });
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

for (const { driver, skip } of databases.drivers) {
  describe(`hub admin member, org and key switches on ${driver}`, { skip }, () => {
    test("member list shows each member's role and two-factor; member remove ends the member's sessions and keeps the last owner", async (t) => {
      const target = await databases.prepareDataDir(driver);
      t.after(() => target.dispose());
      const { orgId, sessionHash } = await withStore(target, async (store) => {
        const admin = createAdmin({ store: store.access, accounts: store.dashboard });
        const { organization } = await admin.createOrganization({ name: "Team" });
        await admin.inviteMember({ orgId: organization.orgId, email: "owner@example.com" });
        const { invite } = await admin.inviteMember({
          orgId: organization.orgId,
          email: "leaver@example.com",
        });
        const tokenHash = "a".repeat(64);
        await store.dashboard.createSession({
          accountId: invite.accountId,
          tokenHash,
          createdAt: new Date(),
          expiresAt: new Date(Date.now() + 3_600_000),
        });
        return { orgId: organization.orgId, sessionHash: tokenHash };
      });

      const listed = jsonOf(await cli(["admin", "member", "list", "--org", orgId, "--json"], target));
      assert.equal(listed.orgId, orgId);
      assert.deepEqual(
        listed.members.map((m: { email: string; role: string; twoFactor: boolean }) => [
          m.email,
          m.role,
          m.twoFactor,
        ]),
        [
          ["owner@example.com", "owner", false],
          ["leaver@example.com", "member", false],
        ],
      );
      const text = await cli(["admin", "member", "list", "--org", orgId], target);
      assert.equal(text.code, 0, text.stderr);
      assert.match(
        text.stdout,
        /owner {3}joined .* two-factor off {2}owner@example\.com {2}\(invitation not used yet\)/,
      );

      const removed = await cli(
        ["admin", "member", "remove", "--org", orgId, "--email", " Leaver@Example.com ", "--json"],
        target,
      );
      assert.equal(removed.code, 0, removed.stdout + removed.stderr);
      assert.equal(jsonOf(removed).member.email, "leaver@example.com");
      await withStore(target, async (store) => {
        assert.equal(await store.dashboard.findSession(sessionHash), undefined, "the session ended");
        assert.equal(await store.dashboard.findAccountByEmail("leaver@example.com"), undefined);
        const { entries } = await createAdmin({ store: store.access, audit: store.audit }).listAuditLog({
          orgId,
        });
        assert.deepEqual(
          entries.filter((e) => e.action === "member.remove").map((e) => [e.source, e.detail]),
          [["cli", { email: "leaver@example.com" }]],
        );
      });

      const again = await cli(
        ["admin", "member", "remove", "--org", orgId, "--email", "leaver@example.com", "--json"],
        target,
      );
      assert.equal(again.code, 1);
      assert.equal(jsonOf(again).error.code, "member-not-found");
      const last = await cli(
        ["admin", "member", "remove", "--org", orgId, "--email", "owner@example.com", "--json"],
        target,
      );
      assert.equal(last.code, 1);
      assert.equal(jsonOf(last).error.code, "last-owner");
      const lastText = await cli(
        ["admin", "member", "remove", "--org", orgId, "--email", "owner@example.com"],
        target,
      );
      assert.match(
        lastText.stderr,
        /owner@example\.com is the organization's last owner; make another member owner first/,
      );
      const stillThere = jsonOf(await cli(["admin", "member", "list", "--org", orgId, "--json"], target));
      assert.equal(stillThere.members.length, 1);
      const missing = await cli(
        ["admin", "member", "list", "--org", "org_000000000000000000000000", "--json"],
        target,
      );
      assert.equal(jsonOf(missing).error.code, "organization-not-found");
      assert.equal(
        (await cli(["admin", "member", "remove", "--org", orgId], target)).code,
        2,
        "--email is required",
      );
    });

    test("org disable makes the organization's keys read as revoked and its project id as unknown until org enable", async (t) => {
      const target = await databases.prepareDataDir(driver);
      t.after(() => target.dispose());
      const { orgId, projectId, key } = await withStore(target, async (store) => {
        const admin = createAdmin({ store: store.access, accounts: store.dashboard });
        const { organization } = await admin.createOrganization({ name: "Paused" });
        const { project } = await admin.createProject({ orgId: organization.orgId, origins: [] });
        const { apiKey } = await admin.createKey({ orgId: organization.orgId });
        return { orgId: organization.orgId, projectId: project.projectId, key: apiKey.key };
      });
      const lookups = () =>
        withStore(target, async (store) => ({
          keyRevoked: ((await store.access.findKeyByHash(hashApiKey(key)))?.revokedAt ?? null) !== null,
          projectFound: (await store.access.findProjectByPublicId(projectId)) !== undefined,
        }));

      const disabled = await cli(["admin", "org", "disable", orgId, "--json"], target);
      assert.equal(disabled.code, 0, disabled.stdout + disabled.stderr);
      assert.equal(jsonOf(disabled).orgId, orgId);
      assert.match(jsonOf(disabled).disabledAt, /^\d{4}-\d\d-\d\dT/);
      assert.deepEqual(await lookups(), { keyRevoked: true, projectFound: false });
      const shown = jsonOf(await cli(["admin", "org", "show", orgId, "--json"], target));
      assert.equal(shown.organization.disabledAt, jsonOf(disabled).disabledAt);

      const enabled = await cli(["admin", "org", "enable", orgId], target);
      assert.equal(enabled.code, 0, enabled.stderr);
      assert.match(enabled.stdout, /^enabled organization org_\w+: its keys and project id work again/);
      assert.deepEqual(await lookups(), { keyRevoked: false, projectFound: true });

      const unknown = await cli(
        ["admin", "org", "disable", "org_000000000000000000000000", "--json"],
        target,
      );
      assert.equal(unknown.code, 1);
      assert.equal(jsonOf(unknown).error.code, "organization-not-found");
      await withStore(target, async (store) => {
        const { entries } = await createAdmin({ store: store.access, audit: store.audit }).listAuditLog({
          orgId,
        });
        assert.deepEqual(
          entries.filter((e) => e.action.startsWith("organization.")).map((e) => [e.action, e.source]),
          [
            ["organization.enable", "cli"],
            ["organization.disable", "cli"],
          ],
        );
      });
    });

    test("key disable refuses the key as revoked until key enable; a revoked key is refused both", async (t) => {
      const target = await databases.prepareDataDir(driver);
      t.after(() => target.dispose());
      const { keyId, key, revokedKeyId } = await withStore(target, async (store) => {
        const admin = createAdmin({ store: store.access });
        const { organization } = await admin.createOrganization({ name: "Keys" });
        const { apiKey } = await admin.createKey({ orgId: organization.orgId, label: "ci" });
        const { apiKey: revoked } = await admin.createKey({ orgId: organization.orgId });
        await admin.revokeKey({ keyId: revoked.keyId });
        return { keyId: apiKey.keyId, key: apiKey.key, revokedKeyId: revoked.keyId };
      });
      const revokedAtLookup = () =>
        withStore(
          target,
          async (store) => (await store.access.findKeyByHash(hashApiKey(key)))?.revokedAt ?? null,
        );

      const disabled = jsonOf(await cli(["admin", "key", "disable", keyId, "--json"], target));
      assert.equal(disabled.apiKey.status, "disabled");
      assert.equal(disabled.changed, true);
      assert.notEqual(await revokedAtLookup(), null);
      const again = await cli(["admin", "key", "disable", keyId], target);
      assert.match(
        again.stdout,
        /^already disabled key_\w+ {2}svc_sk_[\w-]{4}… {2}disabled \S+, no expiry {2}"ci"/,
      );

      const enabled = await cli(["admin", "key", "enable", keyId], target);
      assert.equal(enabled.code, 0, enabled.stderr);
      assert.match(enabled.stdout, /^enabled key_\w+ {2}svc_sk_[\w-]{4}… {2}active, no expiry/);
      assert.equal(await revokedAtLookup(), null);

      for (const verb of ["disable", "enable"]) {
        const refused = await cli(["admin", "key", verb, revokedKeyId, "--json"], target);
        assert.equal(refused.code, 1);
        assert.equal(jsonOf(refused).error.code, "key-revoked");
      }
      const missing = await cli(
        ["admin", "key", "disable", "key_000000000000000000000000", "--json"],
        target,
      );
      assert.equal(jsonOf(missing).error.code, "key-not-found");
      assert.equal((await cli(["admin", "key", "enable"], target)).code, 2);
    });
  });
}
