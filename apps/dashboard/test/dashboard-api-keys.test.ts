import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createAuditStore, createTestDatabases, createUsageStore } from "@hub/store";
import { type DashboardFixture, openDashboardFixture } from "./dashboard-fixture.js";

const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
after(() => databases.dispose());

/** A button by its accessible name; a row's action shows its verb, the key's name visually hidden. */
const button = (name: string) => {
  const [verb, ...rest] = name.split(" ");
  const key = rest.join(" ");
  return new RegExp(`<button[^>]*>(${name}|${verb}<span class="visually-hidden"> ${key}</span>)</button>`);
};

for (const { driver, skip } of databases.drivers) {
  describe(`the API keys page's disable, enable and per-key calls on ${driver}`, { skip }, () => {
    let fx: DashboardFixture;
    before(async () => {
      fx = await openDashboardFixture(databases, driver);
    });
    after(() => fx?.close());

    test("a member disables a key after confirming, sees it disabled with Enable, and enables it again; both audited with their email", async () => {
      const { orgId } = await fx.organization("Switches");
      const email = `switch-${Date.now()}@example.com`;
      const cookie = await fx.signInMember(orgId, email);
      const { apiKey } = await fx.admin.createKey({ orgId, label: "checkout backend" });
      const status = async () => (await fx.admin.listKeys({ orgId })).apiKeys[0]?.status;

      const list = await fx.request("GET", "/keys", { cookie });
      assert.match(list.body, button("Disable checkout backend"));
      assert.doesNotMatch(list.body, button("Enable checkout backend"));
      assert.match(list.body, /data-confirm-title="Disable checkout backend\?"/);

      const unconfirmed = await fx.request("POST", "/keys/disable", {
        cookie,
        form: { keyId: apiKey.keyId },
      });
      assert.equal(unconfirmed.status, 200, "without script, the confirmation page first");
      assert.match(unconfirmed.body, /<h1>Disable checkout backend\?<\/h1>/);
      assert.match(unconfirmed.body, button("Disable key"));
      assert.equal(await status(), "active", "nothing changes before the confirmation");

      const disabled = await fx.request("POST", "/keys/disable", {
        cookie,
        form: { keyId: apiKey.keyId, confirmed: "1" },
      });
      assert.equal(disabled.status, 303);
      assert.equal(disabled.location, "/keys");
      assert.equal(await status(), "disabled");
      const after = await fx.request("GET", "/keys", { cookie });
      assert.match(after.body, /<span class="badge disabled">disabled<\/span>/);
      assert.match(after.body, button("Enable checkout backend"));
      assert.match(after.body, button("Revoke checkout backend"));
      assert.doesNotMatch(after.body, button("Disable checkout backend"));
      assert.doesNotMatch(after.body, />Rotate<span class="visually-hidden"> checkout backend/);

      const enablePage = await fx.request("POST", "/keys/enable", { cookie, form: { keyId: apiKey.keyId } });
      assert.match(enablePage.body, button("Enable key"));
      assert.equal(await status(), "disabled");
      const enabled = await fx.request("POST", "/keys/enable", {
        cookie,
        form: { keyId: apiKey.keyId, confirmed: "1" },
      });
      assert.equal(enabled.status, 303);
      assert.equal(await status(), "active");

      const entries = await createAuditStore(fx.db.sql).listAuditEntries({ orgId, limit: 10 });
      assert.deepEqual(
        entries
          .filter((entry) => entry.action.startsWith("key.") && entry.action !== "key.create")
          .map((entry) => [entry.action, entry.actor, entry.source, entry.target]),
        [
          ["key.enable", email, "dashboard", apiKey.keyId],
          ["key.disable", email, "dashboard", apiKey.keyId],
        ],
      );
    });

    test("a revoked key shows neither Disable nor Enable, and a disable posted for it changes nothing", async () => {
      const { orgId } = await fx.organization("Revoked");
      const cookie = await fx.signInMember(orgId);
      const { apiKey } = await fx.admin.createKey({ orgId, label: "gone" });
      await fx.admin.revokeKey({ keyId: apiKey.keyId });
      const list = await fx.request("GET", "/keys", { cookie });
      assert.doesNotMatch(list.body, /(Disable|Enable)<span class="visually-hidden"> gone/);
      const posted = await fx.request("POST", "/keys/disable", {
        cookie,
        form: { keyId: apiKey.keyId, confirmed: "1" },
      });
      assert.equal(posted.status, 303);
      const [key] = (await fx.admin.listKeys({ orgId })).apiKeys;
      assert.equal(key?.status, "revoked");
      assert.equal(key?.disabledAt, null);
    });

    test("the page shows each key's calls of the last 30 days by route kind, and only its own organization's", async () => {
      const { orgId } = await fx.organization("Counted");
      const { orgId: otherOrgId } = await fx.organization("Other");
      const cookie = await fx.signInMember(orgId);
      const { apiKey: busy } = await fx.admin.createKey({ orgId, label: "busy backend" });
      await fx.admin.createKey({ orgId, label: "idle backend" });
      const { apiKey: foreign } = await fx.admin.createKey({ orgId: otherOrgId, label: "foreign backend" });
      const today = new Date(Math.floor(fx.clock.now() / 86_400_000) * 86_400_000);
      const yesterday = new Date(today.getTime() - 86_400_000);
      const key = (
        keyId: string,
        minute: Date,
        routeKind: "quote" | "order" | "status" | "other",
        count: number,
      ) => ({
        orgId: keyId === foreign.keyId ? otherOrgId : orgId,
        keyId,
        minute,
        routeKind,
        count,
      });
      await createUsageStore(fx.db.sql).addUsage(
        [],
        [
          key(busy.keyId, today, "quote", 12),
          key(busy.keyId, today, "status", 30),
          key(busy.keyId, yesterday, "order", 4),
          key(busy.keyId, yesterday, "other", 1),
          key(foreign.keyId, today, "quote", 777),
        ],
      );

      const page = await fx.request("GET", "/keys", { cookie });
      assert.equal(page.status, 200);
      assert.match(page.body, /<h2 id="key-usage-title">Calls per key, last 30 days<\/h2>/);
      const rowOf = (name: string) => {
        const row = page.body.match(new RegExp(`<tr>\\s*<th scope="row">${name}</th>([\\s\\S]*?)</tr>`));
        assert.ok(row, `a row for ${name}`);
        return [...(row[1] ?? "").matchAll(/<td class="num">(?:<strong>)?(\d+)/g)].map((m) => Number(m[1]));
      };
      assert.deepEqual(
        rowOf("busy backend"),
        [12, 4, 30, 1, 47],
        "quotes, orders, status reads, other, total",
      );
      assert.deepEqual(rowOf("idle backend"), [0, 0, 0, 0, 0]);
      assert.match(page.body, /role="img" aria-label="busy backend: 47 calls in 30 days"/);
      assert.match(
        page.body,
        new RegExp(
          `<title>${today.toISOString().slice(0, 10)}: 42 calls \\(12 quotes, 0 orders, 30 status reads, 0 other\\)</title>`,
        ),
      );
      assert.match(page.body, /<summary>Calls per day: busy backend<\/summary>/);
      assert.doesNotMatch(
        page.body,
        /<summary>Calls per day: idle backend<\/summary>/,
        "no table of empty days",
      );
      // 777 as a number of its own: the member's e-mail carries a timestamp whose digits may hold it.
      assert.doesNotMatch(page.body, /(?<!\d)777(?!\d)|foreign backend/, "nothing of the other organization");
      assert.doesNotMatch(page.body, /<script>|style="/, "no inline script or style");
    });
  });
}
