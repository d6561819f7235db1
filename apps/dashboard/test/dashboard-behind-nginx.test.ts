import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createTestDatabases } from "@hub/store";
import { nginxMissing, type StartedNginx, startNginx } from "@hub/test-support";
import { type DashboardFixture, openDashboardFixture, PASSWORD } from "./dashboard-fixture.js";

const missing = nginxMissing();
if (missing) console.log(`skipping the dashboard-behind-nginx test: ${missing}`);
const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
after(() => databases.dispose());

describe("the dashboard behind nginx with DASHBOARD_TRUSTED_PROXIES", { skip: missing }, () => {
  let f: DashboardFixture;
  let nginx: StartedNginx;

  before(async () => {
    f = await openDashboardFixture(
      databases,
      "pglite",
      { trustedProxies: ["127.0.0.1/32"] },
      { listen: true },
    );
    nginx = await startNginx([new URL(f.url).host]);
  });
  after(async () => {
    await nginx?.close();
    await f?.close();
  });

  const signIn = (email: string, password: string, forwardedFor?: string) =>
    fetch(`${nginx.origin}/sign-in`, {
      method: "POST",
      redirect: "manual",
      headers: {
        origin: f.url,
        "content-type": "application/x-www-form-urlencoded",
        "user-agent": "behind-nginx-test",
        ...(forwardedFor ? { "x-forwarded-for": forwardedFor } : {}),
      },
      body: new URLSearchParams({ email, password }).toString(),
    });

  test("wrong passwords from one forwarded address do not lock out the member signing in from another", async () => {
    const { orgId } = await f.organization();
    const email = `proxied-${Date.now()}@example.com`;
    // The dashboard listens on its own origin here, so the invite is redeemed over HTTP with that Origin.
    const { invite } = await f.admin.inviteMember({ orgId, email });
    const redeemed = await fetch(`${f.url}/sign-in/${invite.token}`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: f.url, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ password: PASSWORD, confirm: PASSWORD }).toString(),
    });
    assert.equal(redeemed.status, 303);
    const windowMs = 15 * 60_000;
    f.clock.advance(windowMs - (f.clock.now() % windowMs));
    for (let i = 0; i < 5; i++)
      assert.equal((await signIn(email, "a wrong password", "203.0.113.7")).status, 401);
    assert.equal(
      (await signIn(email, PASSWORD, "203.0.113.7")).status,
      429,
      "the attacker's address is held",
    );
    // The attacker cannot claim to be someone else: nginx appends the address it saw, the right-most.
    assert.equal((await signIn(email, PASSWORD, "198.51.100.20, 203.0.113.7")).status, 429);
    const member = await signIn(email, PASSWORD, "198.51.100.20");
    assert.equal(member.status, 303, "the member from their own address signs in");
    const cookie = member.headers.getSetCookie()[0]!.split(";")[0]!;
    const account = await fetch(`${nginx.origin}/account`, { headers: { cookie } });
    assert.equal(account.status, 200);
    assert.match(
      await account.text(),
      /<code>198\.51\.100\.20<\/code>/,
      "the session keeps the forwarded address",
    );
    // A client with no header is nginx's own peer, 127.0.0.1: another address, not locked.
    assert.equal((await signIn(email, PASSWORD)).status, 303);
  });
});
