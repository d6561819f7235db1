import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { type Admin, createAdmin } from "@hub/admin";
import { createMemoryCounters } from "@hub/counters";
import { createDashboardApp, type DashboardApp } from "@hub/dashboard-app";
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

    test("a key disabled through hub admin is refused (EPX0002) within 2 seconds, as a revoked one, and enabled accepted again", async (t) => {
      const { organization: org } = await admin.createOrganization({ name: "Switched" });
      const { apiKey: created } = await admin.createKey({ orgId: org.orgId });
      assert.equal((await credentials.checkKey(created.key)).ok, true);

      const disable = await runHub(["admin", "key", "disable", created.keyId, "--json"], target);
      assert.equal(disable.code, 0, disable.stdout + disable.stderr);
      const disabledMs = await within(
        2000,
        () => credentials.checkKey(created.key),
        (check) => !check.ok && check.code === "EPX0002",
      );
      assert.ok(
        disabledMs <= 2000,
        `the disabled key was still accepted ${disabledMs} ms after hub admin returned`,
      );

      const enable = await runHub(["admin", "key", "enable", created.keyId, "--json"], target);
      assert.equal(enable.code, 0, enable.stdout + enable.stderr);
      const enabledMs = await within(
        2000,
        () => credentials.checkKey(created.key),
        (check) => check.ok,
      );
      assert.ok(
        enabledMs <= 2000,
        `the enabled key was still refused ${enabledMs} ms after hub admin returned`,
      );
      t.diagnostic(`in force after the command returned: disable ${disabledMs} ms, enable ${enabledMs} ms`);
    });
  });
}

describe("dashboard changes reach the gateway's credential check", () => {
  let store: Store;
  let dashboard: DashboardApp;
  let credentials: CredentialResolver;
  let target: PreparedDataDir;
  const origin = "http://127.0.0.1:8081";
  before(async () => {
    target = await databases.prepareDataDir("pglite");
    store = await openStore({ dataDir: target.dataDir });
    dashboard = createDashboardApp({
      config: { publicOrigin: origin, apiBaseUrl: "http://127.0.0.1:8080/v1" },
      store,
      counters: createMemoryCounters(),
      logger,
    });
    credentials = createCredentialResolver({}, { store: store.access, logger });
  });
  after(async () => {
    await credentials?.close();
    await dashboard?.close();
    await store?.close();
    await target?.dispose();
  });

  test("a key created, a key revoked (EPX0002) and an origin added in the dashboard are in force within 2 seconds", async (t) => {
    const admin = createAdmin({ store: store.access, accounts: store.dashboard });
    const { organization: org } = await admin.createOrganization({ name: "Dashboard in force" });
    const { project } = await admin.createProject({ orgId: org.orgId, origins: [] });
    const { invite } = await admin.inviteMember({ orgId: org.orgId, email: "in-force@example.com" });
    const post = (url: string, form: Record<string, string>, cookie?: string) =>
      dashboard.app.inject({
        method: "POST",
        url,
        headers: {
          origin,
          "content-type": "application/x-www-form-urlencoded",
          ...(cookie ? { cookie } : {}),
        },
        payload: new URLSearchParams(form).toString(),
      });
    const signedIn = await post(`/sign-in/${invite.token}`, {
      password: "in force password",
      confirm: "in force password",
    });
    const setCookies = [signedIn.headers["set-cookie"] ?? []].flat();
    const session = setCookies.find((c) => c.startsWith("hub_session="))!.split(";")[0]!;
    await credentials.checkProject(project.projectId);

    const created = await post("/keys", { label: "in force" }, session);
    assert.equal(created.statusCode, 303);
    const once = [created.headers["set-cookie"] ?? []]
      .flat()
      .find((c) => c.startsWith("hub_once="))!
      .split(";")[0]!;
    const page = await dashboard.app.inject({
      method: "GET",
      url: "/keys",
      headers: { cookie: `${session}; ${once}` },
    });
    const key = /id="new-api-key" type="text" value="([^"]+)"/.exec(page.body)![1]!;
    const createMs = await within(
      2000,
      () => credentials.checkKey(key),
      (check) => check.ok,
    );
    assert.ok(createMs <= 2000, `the new key was refused ${createMs} ms after the dashboard answered`);

    const added = await post("/origins", { origin: "https://shop.example" }, session);
    assert.equal(added.statusCode, 303);
    const originMs = await within(
      2000,
      () => credentials.checkProject(project.projectId),
      (check) => check.ok && check.allowedOrigins.has("https://shop.example"),
    );
    assert.ok(
      originMs <= 2000,
      `the added origin was not allowed ${originMs} ms after the dashboard answered`,
    );

    const keyId = (await admin.listKeys({ orgId: org.orgId })).apiKeys[0]!.keyId;
    const revoked = await post("/keys/revoke", { keyId, confirmed: "1" }, session);
    assert.equal(revoked.statusCode, 303);
    const revokeMs = await within(
      2000,
      () => credentials.checkKey(key),
      (check) => !check.ok && check.code === "EPX0002",
    );
    assert.ok(
      revokeMs <= 2000,
      `the revoked key was still accepted ${revokeMs} ms after the dashboard answered`,
    );
    t.diagnostic(
      `in force after the dashboard answered: new key ${createMs} ms, origin ${originMs} ms, revoke ${revokeMs} ms`,
    );
  });
});
