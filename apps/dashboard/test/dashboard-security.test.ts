import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { hashDashboardToken } from "@hub/admin";
import { seedReservation } from "@hub/hub-app/test-store/submission-rows";
import { createDashboardStore, createTestDatabases } from "@hub/store";
import { createScryptHasher } from "../src/auth/password-hash.js";
import { type DashboardFixture, openDashboardFixture, PASSWORD } from "./dashboard-fixture.js";

const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
const TEST_COST = { N: 2 ** 15, r: 8, p: 1 };
after(() => databases.dispose());

const XSS = "<img src=x onerror=alert(1)>";
const XSS_ESCAPED = "&lt;img src=x onerror=alert(1)&gt;";

const MEMBER_PAGES = ["/", "/keys", "/keys/new", "/keys/rotate?keyId=key_x", "/origins"];
const OPERATOR_PAGES = ["/organizations", "/organizations/org_x", "/reservations"];
const MEMBER_ACTIONS = [
  "/keys",
  "/keys/rotate",
  "/keys/revoke",
  "/keys/disable",
  "/keys/enable",
  "/origins",
  "/origins/remove",
];
const OPERATOR_ACTIONS = [
  "/organizations",
  "/organizations/org_x/invites",
  "/reservations/opened",
  "/reservations/not-opened",
];
const ALL_ACTIONS = [
  ...MEMBER_ACTIONS,
  ...OPERATOR_ACTIONS,
  "/account/password",
  "/sign-out",
  "/sign-in",
  "/sign-in/abc",
];

const sessionCookie = (cookies: string[]) => cookies.find((c) => /^(__Host-)?hub_session=/.test(c));

for (const { driver, skip } of databases.drivers) {
  describe(`dashboard security on ${driver}`, { skip }, () => {
    let f: DashboardFixture;
    before(async () => {
      // N = 2^15 (a cost the dashboard still verifies): these tests sign in often and are about what a
      // session may do; the production cost is held by dashboard-sign-in-safety's upgrade test.
      f = await openDashboardFixture(
        databases,
        driver,
        {},
        { passwordHasher: createScryptHasher(TEST_COST) },
      );
    });
    after(() => f?.close());

    /** What a member of the organization sees and owns: keys with their states, and origins. */
    const snapshot = async (orgId: string) => {
      const { organization, project } = await f.admin.showOrganization({ orgId });
      const { apiKeys } = await f.admin.listKeys({ orgId });
      return {
        name: organization.name,
        origins: project?.allowedOrigins,
        keys: apiKeys.map((k) => [k.keyId, k.status]),
      };
    };

    test("without a session every page redirects to the sign-in page and every action answers 401, changing nothing", async () => {
      const { orgId } = await f.organization();
      const before = await snapshot(orgId);
      for (const url of [...MEMBER_PAGES, ...OPERATOR_PAGES, "/account"]) {
        const answer = await f.request("GET", url);
        assert.equal(answer.status, 303, url);
        assert.equal(answer.location, "/sign-in", url);
      }
      for (const url of [...MEMBER_ACTIONS, ...OPERATOR_ACTIONS, "/account/password"]) {
        const answer = await f.request("POST", url, {
          form: { label: "x", origin: "https://a.example", name: "n", keyId: "key_x" },
        });
        assert.equal(answer.status, 401, url);
      }
      assert.deepEqual(await snapshot(orgId), before);
    });

    test("a POST without an Origin, or from a foreign origin, is refused with 403 and changes nothing", async () => {
      const { orgId } = await f.organization();
      const member = await f.signInMember(orgId);
      const operator = await f.signInOperator();
      const { apiKey } = await f.admin.createKey({ orgId, label: "kept" });
      const before = await snapshot(orgId);
      const organizationsBefore = (await f.admin.listOrganizations({ limit: 500 })).organizations.length;
      for (const origin of [null, "https://evil.example", "http://127.0.0.1:8082", "null"]) {
        for (const url of ALL_ACTIONS) {
          for (const cookie of [member, operator]) {
            const answer = await f.request("POST", url, {
              cookie,
              origin,
              form: {
                label: "evil",
                origin: "https://evil.example",
                keyId: apiKey.keyId,
                confirmed: "1",
                name: "Evil",
                email: "evil@example.com",
                current: PASSWORD,
                next: "a new password 123",
                confirm: "a new password 123",
              },
            });
            assert.equal(answer.status, 403, `${url} from ${origin}`);
            assert.equal(sessionCookie(answer.cookies), undefined, `${url} sets no session`);
          }
        }
      }
      assert.deepEqual(await snapshot(orgId), before);
      assert.equal(
        (await f.admin.listOrganizations({ limit: 500 })).organizations.length,
        organizationsBefore,
      );
      assert.equal(
        (await f.request("GET", "/keys", { cookie: member })).status,
        200,
        "the member's session still works",
      );
      assert.equal(
        (await f.request("GET", "/organizations", { cookie: operator })).status,
        200,
        "the operator's session still works",
      );
    });

    test("a member of one organization cannot read or change another organization's data by any id in the URL or the body", async () => {
      const a = await f.organization("Org A");
      const b = await f.organization("Org B");
      await f.admin.addProjectOrigin({ projectId: b.projectId, origin: "https://b.example" });
      const { apiKey: bKey } = await f.admin.createKey({ orgId: b.orgId, label: "b secret label" });
      const member = await f.signInMember(a.orgId);
      const bBefore = await snapshot(b.orgId);

      const overview = await f.request("GET", `/?orgId=${b.orgId}&projectId=${b.projectId}`, {
        cookie: member,
      });
      assert.ok(
        overview.body.includes(a.orgId) &&
          !overview.body.includes(b.orgId) &&
          !overview.body.includes(b.projectId),
      );
      const rotatePage = await f.request("GET", `/keys/rotate?keyId=${bKey.keyId}`, { cookie: member });
      assert.equal(rotatePage.status, 303);
      for (const url of [`/organizations/${b.orgId}`, "/organizations", "/reservations"]) {
        const answer = await f.request("GET", url, { cookie: member });
        assert.equal(answer.status, 403, url);
        assert.ok(!answer.body.includes("b secret label") && !answer.body.includes(b.projectId), url);
      }
      const bodies = { orgId: b.orgId, projectId: b.projectId, keyId: bKey.keyId, confirmed: "1" };
      for (const url of ["/keys/revoke", "/keys/disable", "/keys/enable"])
        assert.equal((await f.request("POST", url, { cookie: member, form: bodies })).status, 404, url);
      assert.equal(
        (await f.request("POST", "/keys/rotate", { cookie: member, form: { ...bodies, label: "stolen" } }))
          .status,
        404,
      );
      assert.equal(
        (await f.request("POST", "/keys", { cookie: member, form: { ...bodies, label: "mine" } })).status,
        303,
      );
      assert.equal(
        (
          await f.request("POST", "/origins", {
            cookie: member,
            form: { ...bodies, origin: "https://a.example" },
          })
        ).status,
        303,
      );
      assert.equal(
        (
          await f.request("POST", "/origins/remove", {
            cookie: member,
            form: { ...bodies, origin: "https://b.example" },
          })
        ).status,
        303,
      );
      assert.equal(
        (
          await f.request("POST", `/organizations/${b.orgId}/invites`, {
            cookie: member,
            form: { email: "x@example.com" },
          })
        ).status,
        403,
      );

      assert.deepEqual(await snapshot(b.orgId), bBefore, "organization B is as it was");
      const aAfter = await snapshot(a.orgId);
      assert.deepEqual(aAfter.origins, ["https://a.example"], "the origin went to the member's own project");
      assert.equal(aAfter.keys.length, 1, "the key went to the member's own organization");
      const keysPage = await f.request("GET", "/keys", { cookie: member });
      assert.ok(!keysPage.body.includes("b secret label") && !keysPage.body.includes(bKey.displayPrefix));
    });

    test("a member cannot reach the operators' pages or actions", async () => {
      const { orgId } = await f.organization();
      const member = await f.signInMember(orgId);
      const reservation = await seedReservation(f.db.sql, { orgId, state: "unknown" });
      const organizationsBefore = (await f.admin.listOrganizations({ limit: 500 })).organizations.length;
      for (const url of OPERATOR_PAGES.map((u) => u.replace("org_x", orgId))) {
        assert.equal((await f.request("GET", url, { cookie: member })).status, 403, url);
      }
      for (const url of OPERATOR_ACTIONS.map((u) => u.replace("org_x", orgId))) {
        const answer = await f.request("POST", url, {
          cookie: member,
          form: { name: "Member-made", email: "friend@example.com", hubOrderId: reservation, note: "no" },
        });
        assert.equal(answer.status, 403, url);
      }
      assert.equal(
        (await f.admin.listOrganizations({ limit: 500 })).organizations.length,
        organizationsBefore,
      );
      const [still] = (await f.admin.listReservations({ orgId })).reservations;
      assert.equal(still?.state, "unknown");
    });

    test("an operator cannot use the member pages or actions", async () => {
      const { orgId } = await f.organization();
      const operator = await f.signInOperator();
      const { apiKey } = await f.admin.createKey({ orgId, label: "untouched" });
      const before = await snapshot(orgId);
      assert.equal((await f.request("GET", "/", { cookie: operator })).location, "/organizations");
      for (const url of MEMBER_PAGES.filter((u) => u !== "/")) {
        assert.equal((await f.request("GET", url, { cookie: operator })).status, 403, url);
      }
      for (const url of MEMBER_ACTIONS) {
        const answer = await f.request("POST", url, {
          cookie: operator,
          form: { label: "op", keyId: apiKey.keyId, confirmed: "1", origin: "https://op.example", orgId },
        });
        assert.equal(answer.status, 403, url);
      }
      assert.deepEqual(await snapshot(orgId), before);
    });

    test("an organization name and a key label with markup render escaped on every page that shows them", async () => {
      const { orgId } = await f.organization(XSS);
      const member = await f.signInMember(orgId);
      const operator = await f.signInOperator();
      await f.admin.createKey({ orgId, label: XSS });
      for (const [url, cookie] of [
        ["/", member],
        ["/keys", member],
        ["/origins", member],
        ["/organizations", operator],
        [`/organizations/${orgId}`, operator],
      ] as const) {
        const answer = await f.request("GET", url, { cookie });
        assert.equal(answer.status, 200, url);
        assert.ok(!answer.body.includes("<img"), `${url} holds no raw <img`);
        assert.ok(answer.body.includes(XSS_ESCAPED), `${url} shows the text escaped`);
      }
      const keys = await f.request("GET", "/keys", { cookie: member });
      assert.ok(keys.body.includes(`Revoke<span class="visually-hidden"> ${XSS_ESCAPED}</span>`));
    });

    test("every answer carries the strict Content-Security-Policy, nosniff and a same-origin-only Referrer-Policy", async () => {
      const { orgId } = await f.organization();
      const member = await f.signInMember(orgId);
      for (const [method, url, cookie] of [
        ["GET", "/sign-in", undefined],
        ["GET", "/", member],
        ["GET", "/keys", member],
        ["GET", "/assets/dashboard.css", undefined],
        ["GET", "/assets/dashboard.js", undefined],
        ["GET", "/nowhere", undefined],
        ["POST", "/keys", undefined],
      ] as const) {
        const answer = await f.request(method, url, cookie ? { cookie } : {});
        assert.equal(
          answer.headers["content-security-policy"],
          "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
          url,
        );
        assert.equal(answer.headers["x-content-type-options"], "nosniff", url);
        assert.equal(answer.headers["referrer-policy"], "same-origin", url);
        if (url.startsWith("/") && !url.startsWith("/assets"))
          assert.ok(!/<script>|<style>|\son[a-z]+=/i.test(answer.body), `${url}: no inline script or style`);
      }
    });

    test("the session cookie is HttpOnly, SameSite=Strict, Path=/ and carries a random 32-byte token stored only as its SHA-256", async () => {
      const { orgId } = await f.organization();
      const { invite } = await f.admin.inviteMember({ orgId, email: `cookie-${Date.now()}@example.com` });
      const answer = await f.request("POST", `/sign-in/${invite.token}`, {
        form: { password: PASSWORD, confirm: PASSWORD },
      });
      const cookie = sessionCookie(answer.cookies)!;
      assert.match(cookie, /^hub_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict$/);
      const token = cookie.split(";")[0]!.split("=")[1]!;
      const store = createDashboardStore(f.db.sql);
      assert.equal(await store.findSession(token), undefined, "not stored in clear");
      assert.ok(await store.findSession(hashDashboardToken(token)));
      const account = await store.findAccountByEmail(invite.email);
      assert.match(account!.passwordHash!, /^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
      assert.equal(await store.findInvite(invite.token), undefined, "the invite is not stored in clear");
    });

    test("five failed sign-ins lock the account from that address for the window, even with the right password; other addresses and accounts are not locked", async () => {
      const { orgId } = await f.organization();
      const email = `locked-${Date.now()}@example.com`;
      await f.signInMember(orgId, email);
      const other = `other-${Date.now()}@example.com`;
      await f.signInMember(orgId, other);
      const ip = "203.0.113.7";
      // The limits count in fixed 15-minute windows on the clock: start at a window's beginning so
      // the five failures cannot straddle a boundary of the wall clock under this adjustable one.
      const windowMs = 15 * 60_000;
      f.clock.advance(windowMs - (f.clock.now() % windowMs));
      for (let i = 0; i < 5; i++) {
        const wrong = await f.request("POST", "/sign-in", {
          ip,
          form: { email, password: "not the password" },
        });
        assert.equal(wrong.status, 401);
      }
      const locked = await f.request("POST", "/sign-in", { ip, form: { email, password: PASSWORD } });
      assert.equal(locked.status, 429);
      assert.match(locked.body, /Too many failed sign-ins/);
      assert.equal(sessionCookie(locked.cookies), undefined);
      const elsewhere = await f.request("POST", "/sign-in", {
        ip: "198.51.100.1",
        form: { email, password: PASSWORD },
      });
      assert.equal(elsewhere.status, 303, "the member signs in from another address");
      assert.equal(
        (await f.request("POST", "/sign-in", { ip, form: { email: other, password: PASSWORD } })).status,
        303,
        "another account signs in from the locked address (its own limit is 20 failures)",
      );
      f.clock.advance(windowMs);
      const after = await f.request("POST", "/sign-in", { ip, form: { email, password: PASSWORD } });
      assert.equal(after.status, 303, "the lock ends with its window");
      assert.ok(sessionCookie(after.cookies));
    });

    test("an invite link signs in once; a second use is refused", async () => {
      const { orgId } = await f.organization();
      const { invite } = await f.admin.inviteMember({ orgId, email: `once-${Date.now()}@example.com` });
      assert.equal((await f.request("GET", `/sign-in/${invite.token}`)).status, 200);
      const first = await f.request("POST", `/sign-in/${invite.token}`, {
        form: { password: PASSWORD, confirm: PASSWORD },
      });
      assert.equal(first.status, 303);
      const again = await f.request("POST", `/sign-in/${invite.token}`, {
        form: { password: PASSWORD, confirm: PASSWORD },
      });
      assert.equal(again.status, 410);
      assert.equal(sessionCookie(again.cookies), undefined);
      assert.match((await f.request("GET", `/sign-in/${invite.token}`)).body, /already used/);
    });

    test("an invite link expires 24 hours after it was made", async () => {
      const { orgId } = await f.organization();
      const { invite } = await f.admin.inviteMember({ orgId, email: `expiry-${Date.now()}@example.com` });
      f.clock.advance(24 * 3600_000);
      const late = await f.request("POST", `/sign-in/${invite.token}`, {
        form: { password: PASSWORD, confirm: PASSWORD },
      });
      assert.equal(late.status, 410);
      assert.match(late.body, /expired/);
      assert.equal(sessionCookie(late.cookies), undefined);
    });

    test("a password shorter than 12 characters is refused next to the field and the invite stays usable", async () => {
      const { orgId } = await f.organization();
      const { invite } = await f.admin.inviteMember({ orgId, email: `short-${Date.now()}@example.com` });
      const short = await f.request("POST", `/sign-in/${invite.token}`, {
        form: { password: "short", confirm: "short" },
      });
      assert.equal(short.status, 400);
      assert.match(short.body, /id="field-password-error">Use at least 12 characters/);
      assert.equal((await f.request("GET", `/sign-in/${invite.token}`)).status, 200);
    });

    test("a session ends after 30 idle minutes, and 12 hours after sign-in however busy", async () => {
      const { orgId } = await f.organization();
      const idle = await f.signInMember(orgId);
      f.clock.advance(29 * 60_000);
      assert.equal((await f.request("GET", "/keys", { cookie: idle })).status, 200, "used within 30 minutes");
      f.clock.advance(30 * 60_000);
      assert.equal(
        (await f.request("GET", "/keys", { cookie: idle })).location,
        "/sign-in",
        "idle 30 minutes",
      );

      const busy = await f.signInMember(orgId);
      for (let hour = 0; hour < 12 * 3; hour++) {
        f.clock.advance(20 * 60_000);
        const answer = await f.request("GET", "/keys", { cookie: busy });
        if (hour < 35) assert.equal(answer.status, 200, `used every 20 minutes, at ${(hour + 1) * 20} min`);
        else assert.equal(answer.location, "/sign-in", "12 hours after sign-in");
      }
    });

    test("sign-out ends the session", async () => {
      const { orgId } = await f.organization();
      const member = await f.signInMember(orgId);
      const out = await f.request("POST", "/sign-out", { cookie: member });
      assert.equal(out.status, 303);
      assert.match(sessionCookie(out.cookies)!, /Max-Age=0/);
      assert.equal((await f.request("GET", "/keys", { cookie: member })).location, "/sign-in");
    });

    test("a password change ends every session of the account, and the new password signs in", async () => {
      const { orgId } = await f.organization();
      const email = `change-${Date.now()}@example.com`;
      const first = await f.signInMember(orgId, email);
      const second = sessionCookie(
        (await f.request("POST", "/sign-in", { form: { email, password: PASSWORD } })).cookies,
      )!.split(";")[0]!;
      const wrong = await f.request("POST", "/account/password", {
        cookie: first,
        form: { current: "not it at all", next: "a brand new password", confirm: "a brand new password" },
      });
      assert.equal(wrong.status, 400);
      assert.match(wrong.body, /id="field-current-error"/);
      const changed = await f.request("POST", "/account/password", {
        cookie: first,
        form: { current: PASSWORD, next: "a brand new password", confirm: "a brand new password" },
      });
      assert.equal(changed.status, 303);
      for (const cookie of [first, second])
        assert.equal((await f.request("GET", "/keys", { cookie })).location, "/sign-in");
      assert.equal(
        (await f.request("POST", "/sign-in", { form: { email, password: PASSWORD } })).status,
        401,
      );
      assert.equal(
        (await f.request("POST", "/sign-in", { form: { email, password: "a brand new password" } })).status,
        303,
      );
    });
  });

  describe(`dashboard pages on ${driver}`, { skip }, () => {
    let f: DashboardFixture;
    before(async () => {
      // N = 2^15 (a cost the dashboard still verifies): these tests sign in often and are about what a
      // session may do; the production cost is held by dashboard-sign-in-safety's upgrade test.
      f = await openDashboardFixture(
        databases,
        driver,
        {},
        { passwordHasher: createScryptHasher(TEST_COST) },
      );
    });
    after(() => f?.close());

    test("a new key is shown once after it is made, and a reload no longer shows it", async () => {
      const { orgId } = await f.organization();
      const member = await f.signInMember(orgId);
      const missing = await f.request("POST", "/keys", { cookie: member, form: { label: " " } });
      assert.equal(missing.status, 400);
      assert.match(missing.body, /id="field-label-error"/);
      const made = await f.request("POST", "/keys", {
        cookie: member,
        form: { label: "backend", expires: "30d" },
      });
      assert.equal(made.status, 303);
      const once = made.cookies.find((c) => c.startsWith("hub_once="))!.split(";")[0]!;
      const shown = await f.request("GET", "/keys", { cookie: `${member}; ${once}` });
      const key = /id="new-api-key" type="text" value="(svc_sk_[A-Za-z0-9_-]{43})"/.exec(shown.body)?.[1];
      assert.ok(key, "the key is in the New API key field");
      assert.match(shown.body, /will not be shown again/);
      assert.ok(shown.cookies.some((c) => c.startsWith("hub_once=;") && c.includes("Max-Age=0")));
      const reloaded = await f.request("GET", "/keys", { cookie: member });
      assert.ok(!reloaded.body.includes(key));
      const [listed] = (await f.admin.listKeys({ orgId })).apiKeys;
      assert.equal(listed?.label, "backend");
      assert.ok(listed?.expiresAt);
    });

    test("an origin that is not exact is refused next to the field and nothing is added", async () => {
      const { orgId } = await f.organization();
      const member = await f.signInMember(orgId);
      for (const origin of ["https://app.example.com/path", "https://*.example.com", "app.example.com"]) {
        const answer = await f.request("POST", "/origins", { cookie: member, form: { origin } });
        assert.equal(answer.status, 400, origin);
        assert.match(answer.body, /id="field-origin-error">Not an exact origin/);
      }
      assert.deepEqual((await f.admin.showOrganization({ orgId })).project?.allowedOrigins, []);
      assert.equal(
        (
          await f.request("POST", "/origins", {
            cookie: member,
            form: { origin: "HTTPS://App.Example.com:443" },
          })
        ).status,
        303,
      );
      assert.deepEqual((await f.admin.showOrganization({ orgId })).project?.allowedOrigins, [
        "https://app.example.com",
      ]);
    });

    test("an operator settles an unknown reservation from the reservations page", async () => {
      const { orgId } = await f.organization();
      const operator = await f.signInOperator();
      const reservation = await seedReservation(f.db.sql, { orgId, state: "unknown" });
      const page = await f.request("GET", "/reservations", { cookie: operator });
      assert.ok(page.body.includes(reservation));
      const bad = await f.request("POST", "/reservations/opened", {
        cookie: operator,
        form: { hubOrderId: reservation, onchainOrderId: "0x12" },
      });
      assert.equal(bad.status, 400);
      assert.match(bad.body, /not an on-chain order id/);
      const done = await f.request("POST", "/reservations/not-opened", {
        cookie: operator,
        form: { hubOrderId: reservation, note: "no Open on chain" },
      });
      assert.equal(done.status, 303);
      const [settled] = (await f.admin.listReservations({ orgId })).reservations;
      assert.equal(settled?.state, "released");
      assert.equal(settled?.reconciledNote, "no Open on chain");
    });
  });
}
