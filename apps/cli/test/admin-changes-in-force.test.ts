import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { type Admin, createAdmin } from "@hub/admin";
import { type CredentialResolver, createCredentialResolver } from "@hub/gateway-app";
import { createTestDatabases, openStore, type PreparedDataDir, type Store } from "@hub/store";
import { pollUntil } from "@hub/test-support";
import { pino } from "pino";
import { type AdminChannel, startAdminChannel } from "../src/admin-channel.js";
import { runHub } from "./run-hub.js";

const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
after(() => databases.dispose());
const logger = pino({ level: "silent" });

async function within<T>(
  deadlineMs: number,
  read: () => Promise<T>,
  done: (value: T) => boolean,
): Promise<number> {
  const started = Date.now();
  const met = await pollUntil("the change in force", async () => done(await read()), {
    timeoutMs: deadlineMs,
    intervalMs: 50,
  }).catch(() => false);
  return met ? Date.now() - started : Number.POSITIVE_INFINITY;
}

for (const { driver, skip } of databases.drivers) {
  describe(`hub admin changes reach the gateway's credential check on ${driver}`, { skip }, () => {
    let target: PreparedDataDir;
    let store: Store;
    let admin: Admin;
    let channel: AdminChannel | undefined;
    let credentials: CredentialResolver;
    before(async () => {
      target = await databases.prepareDataDir(driver);
      store = await openStore({ dataDir: target.dataDir, databaseUrl: target.databaseUrl });
      admin = createAdmin({ store: store.access });
      if (driver === "pglite") channel = await startAdminChannel({ admin, dataDir: target.dataDir, logger });
      credentials = createCredentialResolver({}, { store: store.access, logger });
    });
    after(async () => {
      await credentials?.close();
      await channel?.stop();
      await store?.close();
      await target?.dispose();
    });

    test("a key revoked and an origin replaced through hub admin are in force within 2 seconds", async (t) => {
      const { organization: org } = await admin.createOrganization({ name: "In force" });
      const { project } = await admin.createProject({ orgId: org.orgId, origins: ["https://old.example"] });
      const { apiKey: created } = await admin.createKey({ orgId: org.orgId });
      assert.equal((await credentials.checkKey(created.key)).ok, true);
      const before = await credentials.checkProject(project.projectId);
      assert.ok(before.ok && before.allowedOrigins.has("https://old.example"));

      const revoke = await runHub(["admin", "key", "revoke", created.keyId, "--json"], target);
      assert.equal(revoke.code, 0, revoke.stdout + revoke.stderr);
      const keyMs = await within(
        2000,
        () => credentials.checkKey(created.key),
        (check) => !check.ok && check.code === "EPX0002",
      );
      assert.ok(keyMs <= 2000, `the revoked key was still accepted ${keyMs} ms after hub admin returned`);

      const origins = await runHub(
        [
          "admin",
          "project",
          "origins",
          "--project",
          project.projectId,
          "--origin",
          "https://new.example",
          "--json",
        ],
        target,
      );
      assert.equal(origins.code, 0, origins.stdout + origins.stderr);
      const originMs = await within(
        2000,
        () => credentials.checkProject(project.projectId),
        (check) =>
          check.ok &&
          check.allowedOrigins.has("https://new.example") &&
          !check.allowedOrigins.has("https://old.example"),
      );
      assert.ok(
        originMs <= 2000,
        `the old origin list was still served ${originMs} ms after hub admin returned`,
      );
      t.diagnostic(`in force after the command returned: revoke ${keyMs} ms, origins ${originMs} ms`);
    });
  });
}
