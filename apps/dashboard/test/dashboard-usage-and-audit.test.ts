import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createTestDatabases, createUsageStore } from "@hub/store";
import { type DashboardFixture, openDashboardFixture } from "./dashboard-fixture.js";

const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
after(() => databases.dispose());

const navLink = (label: string) => new RegExp(`<a href="[^"]+"[^>]*>${label}</a>`);

for (const { driver, skip } of databases.drivers) {
  describe(`the dashboard's Usage and Audit log pages on ${driver}`, { skip }, () => {
    let fx: DashboardFixture;
    before(async () => {
      fx = await openDashboardFixture(databases, driver);
    });
    after(() => fx?.close());

    test("a member's Usage page shows only their own organization's calls, whatever the URL says", async () => {
      const mine = await fx.organization("Mine");
      const theirs = await fx.organization("Theirs");
      const usage = createUsageStore(fx.db.sql);
      const minute = new Date(Math.floor(fx.clock.now() / 60_000) * 60_000);
      await usage.addUsage([
        { orgId: mine.orgId, minute, credentialKind: "api_key", code: "", count: 7 },
        { orgId: mine.orgId, minute, credentialKind: "project_id", code: "EPX0082", count: 2 },
        { orgId: mine.orgId, minute, credentialKind: "api_key", code: "EPX0081", count: 1 },
        { orgId: theirs.orgId, minute, credentialKind: "api_key", code: "EIN0080", count: 999 },
      ]);
      const cookie = await fx.signInMember(mine.orgId);

      for (const url of ["/usage", `/usage?orgId=${theirs.orgId}`, `/usage?org=${theirs.orgId}`]) {
        const page = await fx.request("GET", url, { cookie });
        assert.equal(page.status, 200, url);
        assert.match(page.body, navLink("Usage"));
        assert.doesNotMatch(page.body, navLink("Audit log"));
        assert.match(page.body, /<svg[^>]+role="img"/, "the chart");
        assert.match(page.body, /<code>EPX0082<\/code>/);
        assert.match(page.body, /<span class="stat">10<\/span> requests/);
        assert.match(page.body, /<span class="stat">1<\/span> lockouts/);
        // 999 as a number of its own: the member's e-mail carries a timestamp whose digits may hold "999".
        assert.doesNotMatch(
          page.body,
          /(?<!\d)999(?!\d)|EIN0080|Theirs/,
          "nothing of the other organization",
        );
        assert.doesNotMatch(page.body, /<script>|style="/, "no inline script or style");
      }
    });

    test("the Usage page's project id pool section: reads and quotes admitted, the pool's and a visitor's refusals, per hour", async () => {
      const org = await fx.organization("Pooled");
      const usage = createUsageStore(fx.db.sql);
      const minute = new Date(Math.floor(fx.clock.now() / 60_000) * 60_000);
      const earlier = new Date(minute.getTime() - 3_600_000);
      const asPage = { orgId: org.orgId, credentialKind: "project_id" } as const;
      await usage.addUsage([
        { ...asPage, minute, routeKind: "read", code: "", count: 400 },
        // A hub answer other than a success still passed the pools.
        { ...asPage, minute, routeKind: "read", code: "EIN0009", count: 2 },
        { ...asPage, minute, routeKind: "quote", code: "", count: 6 },
        { ...asPage, minute, routeKind: "order", code: "EIN0007", count: 1 },
        { ...asPage, minute, routeKind: "read", code: "EPX0080", count: 3 },
        { ...asPage, minute, routeKind: "quote", code: "EPX0082", count: 4 },
        { ...asPage, minute, routeKind: "read", code: "EPX0010", count: 5 },
        { ...asPage, minute: earlier, routeKind: "read", code: "", count: 70 },
        { orgId: org.orgId, credentialKind: "api_key", minute, routeKind: "read", code: "", count: 900 },
      ]);
      const page = await fx.request("GET", "/usage", { cookie: await fx.signInMember(org.orgId) });
      assert.equal(page.status, 200);
      const section = page.body.slice(
        page.body.indexOf('<h2 id="pool-title">'),
        page.body.indexOf('<h2 id="hours-title">'),
      );
      assert.match(section, /Project id pool/);
      assert.match(section, /<span class="stat">472<\/span> reads admitted/);
      assert.match(section, /<span class="stat">6<\/span> quotes admitted/);
      assert.match(section, /<span class="stat">1<\/span> orders admitted/);
      assert.match(section, /<span class="stat">3<\/span> pool spent/);
      assert.match(section, /<span class="stat">4<\/span> visitor bucket spent/);
      // Two hours with project id calls, newest first; the key's 900 calls are not the pool's.
      const rows = [
        ...section.matchAll(/<tr>\s*<th scope="row">[^<]+<\/th>((?:\s*<td class="num">\d+<\/td>)+)/g),
      ].map((m) => [...(m[1] as string).matchAll(/\d+/g)].map((n) => Number(n[0])));
      assert.deepEqual(rows, [
        [402, 6, 1, 3, 4],
        [70, 0, 0, 0, 0],
      ]);
      assert.doesNotMatch(section, /900/);
    });

    test("a member with no calls sees the empty state; an operator is refused the member's Usage page", async () => {
      const quiet = await fx.organization("Quiet");
      const page = await fx.request("GET", "/usage", { cookie: await fx.signInMember(quiet.orgId) });
      assert.equal(page.status, 200);
      assert.match(page.body, /No calls in the last 24 hours/);
      const operator = await fx.request("GET", "/usage", { cookie: await fx.signInOperator() });
      assert.equal(operator.status, 403);
    });

    test("the Audit log page lists a dashboard action with the operator who did it, escaped", async () => {
      const email = `audit-${Date.now()}@example.com`;
      const cookie = await fx.signInOperator(email);
      const created = await fx.request("POST", "/organizations", {
        cookie,
        form: { name: "<img src=x onerror=alert(1)>" },
      });
      assert.equal(created.status, 303);
      const page = await fx.request("GET", "/audit-log", { cookie });
      assert.equal(page.status, 200);
      assert.match(page.body, navLink("Audit log"));
      assert.doesNotMatch(page.body, navLink("Usage"));
      assert.match(
        page.body,
        new RegExp(`${email.replace(/\./g, "\\.")}<br><span class="badge">Dashboard</span>`),
      );
      assert.match(page.body, /<code>organization\.create<\/code>/);
      assert.match(page.body, /&lt;img src=x onerror=alert\(1\)&gt;/);
      assert.doesNotMatch(page.body, /<img src=x/);
    });

    test("the Audit log page refuses members and sends a visitor without a session to sign in", async () => {
      const org = await fx.organization("Curious");
      const member = await fx.request("GET", "/audit-log", { cookie: await fx.signInMember(org.orgId) });
      assert.equal(member.status, 403);
      assert.doesNotMatch(member.body, /organization\.create/);
      const visitor = await fx.request("GET", "/audit-log");
      assert.equal(visitor.status, 303);
      assert.equal(visitor.location, "/sign-in");
    });
  });
}
