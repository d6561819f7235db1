import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createDashboardStore, createTestDatabases } from "@hub/store";
import { createScryptHasher, type PasswordHasher } from "../src/auth/password-hash.js";
import { type DashboardFixture, openDashboardFixture, PASSWORD } from "./dashboard-fixture.js";

const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
after(() => databases.dispose());

const WINDOW_MS = 15 * 60_000;
let counter = 0;
const email = (what: string) => `${what}-${Date.now()}-${++counter}@example.com`;
const sessionCookie = (cookies: string[]) =>
  cookies.find((c) => /^(__Host-)?hub_session=/.test(c))?.split(";")[0];

/**
 * These tests count hashes, not their cost: scrypt at N = 2^15 (a quarter of the production cost, a
 * cost the dashboard still verifies) keeps the file's hundred-odd hashes from dominating the suite. The
 * production cost is the upgrade test's, below, on a fixture of its own.
 */
const COUNTED_COST = { N: 2 ** 15, r: 8, p: 1 };

/** The real scrypt hasher, counting every hash and verification it computes. */
function countingHasher(): PasswordHasher & { computed: number } {
  const real = createScryptHasher(COUNTED_COST);
  const hasher = {
    computed: 0,
    async hash(password: string) {
      hasher.computed += 1;
      return real.hash(password);
    },
    async verify(password: string, stored: string) {
      hasher.computed += 1;
      return real.verify(password, stored);
    },
    isCurrent: real.isCurrent,
  };
  return hasher;
}

for (const { driver, skip } of databases.drivers) {
  describe(`dashboard sign-in safety on ${driver}`, { skip }, () => {
    let f: DashboardFixture;
    const hasher = countingHasher();
    before(async () => {
      f = await openDashboardFixture(databases, driver, {}, { passwordHasher: hasher });
    });
    after(() => f?.close());

    /** Starts at a window's beginning, so a test's attempts never straddle a window boundary. */
    const startOfWindow = () => f.clock.advance(WINDOW_MS - (f.clock.now() % WINDOW_MS));

    test("concurrent wrong sign-ins beyond the limit are refused before any hash is computed", async () => {
      const { orgId } = await f.organization();
      const victim = email("burst");
      await f.signInMember(orgId, victim);
      startOfWindow();
      const before = hasher.computed;
      const answers = await Promise.all(
        Array.from({ length: 30 }, () =>
          f.request("POST", "/sign-in", {
            ip: "203.0.113.50",
            form: { email: victim, password: "wrong guess!!" },
          }),
        ),
      );
      const statuses = answers.map((answer) => answer.status).sort();
      assert.deepEqual(
        statuses,
        [...Array(5).fill(401), ...Array(25).fill(429)],
        "five checked, the rest refused",
      );
      assert.equal(hasher.computed - before, 5, "one hash per allowed attempt and none for the refused");
      const later = await f.request("POST", "/sign-in", {
        ip: "203.0.113.50",
        form: { email: victim, password: PASSWORD },
      });
      assert.equal(later.status, 429, "still locked: refused attempts were not checked");
      assert.equal(hasher.computed - before, 5);
    });

    test("a right password takes its attempt back: only failures count toward the limit", async () => {
      const { orgId } = await f.organization();
      const member = email("steady");
      await f.signInMember(orgId, member);
      startOfWindow();
      for (let i = 0; i < 4; i++)
        assert.equal(
          (
            await f.request("POST", "/sign-in", {
              ip: "192.0.2.9",
              form: { email: member, password: "nope nope nope" },
            })
          ).status,
          401,
        );
      for (let i = 0; i < 8; i++)
        assert.equal(
          (
            await f.request("POST", "/sign-in", {
              ip: "192.0.2.9",
              form: { email: member, password: PASSWORD },
            })
          ).status,
          303,
          `sign-in ${i + 1} after four failures`,
        );
      assert.equal(
        (
          await f.request("POST", "/sign-in", {
            ip: "192.0.2.9",
            form: { email: member, password: "nope nope nope" },
          })
        ).status,
        401,
        "the fifth failure is still checked",
      );
      assert.equal(
        (
          await f.request("POST", "/sign-in", {
            ip: "192.0.2.9",
            form: { email: member, password: PASSWORD },
          })
        ).status,
        429,
      );
    });

    test("one address guessing many accounts is held at 20 failures in the window", async () => {
      const { orgId } = await f.organization();
      const members = [
        email("spray-a"),
        email("spray-b"),
        email("spray-c"),
        email("spray-d"),
        email("spray-e"),
      ];
      for (const member of members) await f.signInMember(orgId, member);
      startOfWindow();
      for (const member of members.slice(0, 4))
        for (let i = 0; i < 5; i++)
          assert.equal(
            (
              await f.request("POST", "/sign-in", {
                ip: "198.51.100.66",
                form: { email: member, password: "spray spray!" },
              })
            ).status,
            401,
          );
      const fifth = await f.request("POST", "/sign-in", {
        ip: "198.51.100.66",
        form: { email: members[4]!, password: PASSWORD },
      });
      assert.equal(fifth.status, 429, "the address spent its 20");
      const home = await f.request("POST", "/sign-in", {
        ip: "198.51.100.67",
        form: { email: members[4]!, password: PASSWORD },
      });
      assert.equal(home.status, 303);
    });

    test("wrong current passwords on the Account page are limited like sign-ins, before the hash", async () => {
      const { orgId } = await f.organization();
      const cookie = await f.signInMember(orgId);
      startOfWindow();
      const change = (current: string) =>
        f.request("POST", "/account/password", {
          cookie,
          ip: "203.0.113.80",
          form: { current, next: "another long password", confirm: "another long password" },
        });
      for (let i = 0; i < 5; i++) {
        const wrong = await change("not my password");
        assert.equal(wrong.status, 400);
        assert.match(wrong.body, /This is not your current password/);
      }
      const before = hasher.computed;
      const refused = await change(PASSWORD);
      assert.equal(refused.status, 429);
      assert.match(refused.body, /Too many failed password checks/);
      assert.equal(hasher.computed, before, "no hash for a refused attempt");
      f.clock.advance(WINDOW_MS);
      const changed = await change(PASSWORD);
      assert.equal(changed.status, 303);
      assert.equal(changed.location, "/sign-in?notice=password-changed");
    });

    test("a hash of the old cost (N = 2^15) signs in and is replaced by one at N = 2^17", async (t) => {
      // The dashboard's own hasher, at the production cost.
      const f = await openDashboardFixture(databases, driver);
      t.after(() => f.close());
      const startOfWindow = () => f.clock.advance(WINDOW_MS - (f.clock.now() % WINDOW_MS));
      const { orgId } = await f.organization();
      const member = email("old-hash");
      await f.signInMember(orgId, member);
      const store = createDashboardStore(f.db.sql);
      const account = (await store.findAccountByEmail(member))!;
      const oldHash = await createScryptHasher({ N: 2 ** 15, r: 8, p: 1 }).hash(PASSWORD);
      await store.changePassword(account.accountId, oldHash);
      assert.match((await store.findAccountByEmail(member))!.passwordHash!, /^scrypt\$32768\$/);
      startOfWindow();
      const wrong = await f.request("POST", "/sign-in", {
        ip: "192.0.2.30",
        form: { email: member, password: "wrong one!!!!" },
      });
      assert.equal(wrong.status, 401);
      assert.equal(
        (await store.findAccountByEmail(member))!.passwordHash,
        oldHash,
        "a wrong password upgrades nothing",
      );
      const right = await f.request("POST", "/sign-in", {
        ip: "192.0.2.30",
        form: { email: member, password: PASSWORD },
      });
      assert.equal(right.status, 303);
      const upgraded = (await store.findAccountByEmail(member))!.passwordHash!;
      assert.match(upgraded, /^scrypt\$131072\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
      assert.ok(await createScryptHasher().verify(PASSWORD, upgraded));
      const again = await f.request("POST", "/sign-in", {
        ip: "192.0.2.30",
        form: { email: member, password: PASSWORD },
      });
      assert.equal(again.status, 303, "the upgraded hash signs in");
      assert.equal(
        (await store.findAccountByEmail(member))!.passwordHash,
        upgraded,
        "and is not rehashed again",
      );
    });

    test("a control character in the e-mail or any form field answers a clear 400 and changes nothing", async () => {
      const nul = await f.request("POST", "/sign-in", {
        body: `email=${encodeURIComponent("someone\u0000@example.com")}&password=whatever+long`,
      });
      assert.equal(nul.status, 400);
      assert.match(nul.body, /control character/);
      assert.match(nul.body, /the field “email”/);
      for (const character of ["\u0001", "\n", "\u001b", "\u007f", "\u0085"]) {
        const answer = await f.request("POST", "/sign-in", {
          form: { email: `a${character}b@example.com`, password: "whatever long" },
        });
        assert.equal(answer.status, 400, JSON.stringify(character));
      }
      const { orgId } = await f.organization();
      const cookie = await f.signInMember(orgId);
      const origin = await f.request("POST", "/origins", {
        cookie,
        form: { origin: "https://shop.example\u0000.com" },
      });
      assert.equal(origin.status, 400);
      const { project } = await f.admin.showOrganization({ orgId });
      assert.deepEqual(project?.allowedOrigins, []);
      const key = await f.request("POST", "/keys", { cookie, form: { label: "tab\there", expires: "" } });
      assert.equal(key.status, 400);
      assert.deepEqual((await f.admin.listKeys({ orgId })).apiKeys, []);
    });

    test("a member lists their own sessions with address and browser and ends the others, never another's", async () => {
      const { orgId } = await f.organization();
      const member = email("sessions");
      const first = await f.signInMember(orgId, member);
      const signIn = async (ip: string, userAgent: string) => {
        const answer = await f.request("POST", "/sign-in", {
          ip,
          userAgent,
          form: { email: member, password: PASSWORD },
        });
        assert.equal(answer.status, 303);
        return sessionCookie(answer.cookies)!;
      };
      const laptop = await signIn(
        "192.0.2.44",
        "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0.0.0 Safari/537.36",
      );
      const phone = await signIn(
        "198.51.100.45",
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) Firefox/128.0",
      );
      const stranger = await f.signInMember(orgId);
      const page = await f.request("GET", "/account", { cookie: laptop });
      assert.equal(page.status, 200);
      assert.match(page.body, /<h2 id="sessions-title">Sessions<\/h2>/);
      assert.match(page.body, /192\.0\.2\.44/);
      assert.match(page.body, /198\.51\.100\.45/);
      assert.match(page.body, /Chrome 131 on Linux/);
      assert.match(page.body, /Firefox 128 on iPhone OS 17_5/);
      assert.equal(page.body.match(/>this browser</g)?.length, 1);
      assert.equal(page.body.match(/>End session</g)?.length, 2, "the invite's session and the phone's");
      const handles = [...page.body.matchAll(/name="session" value="([0-9a-f]{64})"/g)].map((m) => m[1]!);
      assert.equal(handles.length, 2);

      // Another member's session cannot be ended with a handle from this page, nor this page's from theirs.
      const strangerPage = await f.request("GET", "/account", { cookie: stranger });
      const strangerHandle = /name="session" value="([0-9a-f]{64})"/.exec(strangerPage.body)?.[1];
      assert.equal(strangerHandle, undefined, "the stranger has only this browser's session");
      for (const handle of handles) {
        const refused = await f.request("POST", "/account/sessions/end", {
          cookie: stranger,
          form: { session: handle },
        });
        assert.equal(refused.status, 303);
      }
      assert.equal(
        (await f.request("GET", "/account", { cookie: phone })).status,
        200,
        "the phone is still signed in",
      );

      const ended = await f.request("POST", "/account/sessions/end", {
        cookie: laptop,
        form: { session: handles[0]! },
      });
      assert.equal(ended.status, 303);
      const after = await f.request("GET", "/account", {
        cookie: `${laptop}; ${ended.cookies[0]!.split(";")[0]}`,
      });
      assert.match(after.body, /1 session ended\./);
      const endOthers = await f.request("POST", "/account/sessions/end-others", { cookie: laptop });
      assert.equal(endOthers.status, 303);
      for (const gone of [first, phone])
        assert.equal((await f.request("GET", "/keys", { cookie: gone })).location, "/sign-in", "ended");
      const mine = await f.request("GET", "/account", { cookie: laptop });
      assert.equal(mine.status, 200);
      assert.equal(mine.body.match(/>End session</g), null);
      assert.equal(
        (await f.request("GET", "/account", { cookie: stranger })).status,
        200,
        "another's session lives",
      );
    });
  });
}
