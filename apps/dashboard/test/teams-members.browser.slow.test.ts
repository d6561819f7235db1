import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { after, before, test } from "node:test";
import { hashApiKey } from "@hub/contract";
import { createAccessStore, createAuditStore, createTestDatabases } from "@hub/store";
import { type Browser, chromium, type Page } from "playwright-core";
import { totpCode } from "../src/auth/totp.js";
import { type DashboardFixture, openDashboardFixture } from "./dashboard-fixture.js";

const CHROMIUM = "/usr/bin/chromium";
const missing = !existsSync(CHROMIUM);
if (missing && process.env.CI === "true")
  throw new Error(`${CHROMIUM} is missing: CI installs the chromium package (.ci/run)`);
const skip = missing ? `${CHROMIUM} is missing: the browser suite is skipped` : false;

const databases = createTestDatabases({ databaseUrl: undefined });
const PASSWORD = "a long browser password";
let f: DashboardFixture;
let browser: Browser;

before(async () => {
  if (skip) return;
  f = await openDashboardFixture(databases, "pglite", {}, { listen: true });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
    ],
  });
});

after(async () => {
  await browser?.close();
  await f?.close();
  await databases.dispose();
});

async function shot(page: Page, name: string): Promise<void> {
  const path = `/tmp/teams-members-${name}.png`;
  await page.screenshot({ path, fullPage: true });
  console.log(`# screenshot ${path}`);
}

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  return context.newPage();
}

async function join(page: Page, link: string): Promise<void> {
  await page.goto(link);
  await page.getByLabel("New password").fill(PASSWORD);
  await page.getByLabel("Confirm password").fill(PASSWORD);
  await page.getByRole("button", { name: "Set password and sign in" }).click();
  await page.getByRole("heading", { name: "Overview" }).waitFor();
}

async function signIn(page: Page, email: string): Promise<void> {
  await page.goto(`${f.url}/sign-in`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

async function signOut(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await page.getByRole("button", { name: "Sign in", exact: true }).waitFor();
}

test("in a real browser: an owner invites a member, who joins; the last owner is kept; removal ends the member's session", {
  skip,
}, async () => {
  const { orgId } = await f.organization("Teams Co");
  const ownerEmail = `owner-${Date.now()}@example.com`;
  const memberEmail = `member-${Date.now()}@example.com`;
  // The first member an operator invites is the organization's owner.
  const { invite } = await f.admin.inviteMember({ orgId, email: ownerEmail });
  const owner = await newPage();
  await join(owner, `${f.url}/sign-in/${invite.token}`);

  await owner.getByRole("link", { name: "Members", exact: true }).click();
  await owner.getByRole("heading", { name: "Members" }).waitFor();
  const table = owner.getByRole("table", { name: "Members" });
  for (const header of ["Email", "Role", "Joined", "Last sign-in", "Two-factor"])
    await table.getByRole("columnheader", { name: header, exact: true }).waitFor();
  await table
    .getByRole("row", { name: new RegExp(ownerEmail) })
    .getByText("owner", { exact: true })
    .waitFor();

  await owner.getByRole("button", { name: "Invite member", exact: true }).click();
  await owner.getByLabel("Email").fill(memberEmail);
  await shot(owner, "invite-form");
  await owner.getByRole("button", { name: "Send invitation", exact: true }).click();
  const linkBox = owner.getByRole("textbox", { name: "Invitation link" });
  const link = await linkBox.inputValue();
  assert.match(link, new RegExp(`^${f.url}/sign-in/[A-Za-z0-9_-]{43}$`));
  assert.equal(await linkBox.getAttribute("readonly"), "");
  await shot(owner, "invitation-link");

  const member = await newPage();
  await join(member, link);
  await member.getByRole("link", { name: "Members", exact: true }).click();
  await member.getByText("Owners invite and remove members").waitFor();
  assert.equal(await member.getByRole("button", { name: "Invite member" }).count(), 0);
  assert.equal(await member.getByRole("button", { name: `Remove ${ownerEmail}` }).count(), 0);
  await shot(member, "members-as-member");
  // A member's write is refused by the admin rules, not only hidden.
  const session = (await member.context().cookies()).find((c) => c.name === "hub_session")!;
  const refused = await f.request("POST", "/members/invites", {
    cookie: `hub_session=${session.value}`,
    form: { email: "intruder@example.com" },
  });
  assert.equal(refused.status, 403);

  await owner.reload();
  await owner.getByRole("row", { name: new RegExp(memberEmail) }).waitFor();
  await shot(owner, "members");

  // The last owner can be neither demoted nor removed.
  await owner.getByRole("button", { name: `Make ${ownerEmail} a member`, exact: true }).click();
  await owner.getByText("is the organization's last owner").waitFor();
  await owner.waitForLoadState("load");
  await owner.getByRole("button", { name: `Remove ${ownerEmail}`, exact: true }).click();
  await owner.getByRole("dialog").getByRole("button", { name: "Remove member", exact: true }).click();
  await owner.getByText("is the organization's last owner").waitFor();
  await shot(owner, "last-owner");

  await owner.getByRole("button", { name: `Make ${memberEmail} an owner`, exact: true }).click();
  await owner.getByText(`${memberEmail} is now an owner.`).waitFor();
  await owner.getByRole("button", { name: `Make ${memberEmail} a member`, exact: true }).click();
  await owner.getByText(`${memberEmail} is now a member.`).waitFor();

  await owner.waitForLoadState("load");
  await owner.getByRole("button", { name: `Remove ${memberEmail}`, exact: true }).click();
  const dialog = owner.getByRole("dialog");
  await dialog.waitFor();
  await shot(owner, "remove-dialog");
  await dialog.getByRole("button", { name: "Remove member", exact: true }).click();
  await owner.getByText(`${memberEmail} is removed and signed out.`).waitFor();
  assert.equal(await owner.getByRole("row", { name: new RegExp(memberEmail) }).count(), 0);

  // The removed member's next request shows the sign-in page, and the password signs in no more.
  await member.reload();
  await member.getByRole("button", { name: "Sign in", exact: true }).waitFor();
  await signIn(member, memberEmail);
  await member.getByText("The email or the password is not right.").waitFor();

  const actions = (await createAuditStore(f.db.sql).listAuditEntries({ limit: 100, orgId })).map(
    (entry) => `${entry.action} by ${entry.actor}`,
  );
  for (const expected of [
    `member.invite by ${ownerEmail}`,
    `member.join by ${memberEmail}`,
    `member.set-role by ${ownerEmail}`,
    `member.remove by ${ownerEmail}`,
  ])
    assert.ok(actions.includes(expected), `${expected} in ${actions.join(", ")}`);
});

test("in a real browser: two-factor set-up, a sign-in that needs the code, a recovery code used once; an organization that requires it", {
  skip,
}, async () => {
  const { orgId } = await f.organization("Two Factor Co");
  const email = `tf-${Date.now()}@example.com`;
  const { invite } = await f.admin.inviteMember({ orgId, email });
  const page = await newPage();
  await join(page, `${f.url}/sign-in/${invite.token}`);

  await page.getByRole("link", { name: "Account", exact: true }).click();
  await page.getByRole("button", { name: "Set up two-factor authentication", exact: true }).click();
  const secretBox = page.getByRole("textbox", { name: "Authenticator secret" });
  const secret = await secretBox.inputValue();
  assert.match(secret, /^[A-Z2-7]{32}$/);
  assert.equal(await secretBox.getAttribute("readonly"), "");
  await page.getByRole("img", { name: "QR image of the authenticator secret" }).waitFor();
  await shot(page, "two-factor-setup");
  await page.getByRole("textbox", { name: "Code", exact: true }).fill("000000");
  await page.getByRole("button", { name: "Turn on two-factor authentication", exact: true }).click();
  await page.getByText("This code does not match").waitFor();
  const setUpCode = totpCode(secret, f.clock.now());
  await page.getByRole("textbox", { name: "Code", exact: true }).fill(setUpCode);
  await page.getByRole("button", { name: "Turn on two-factor authentication", exact: true }).click();
  await page.getByText("Two-factor authentication is on.").waitFor();
  const codes = await page
    .getByRole("list", { name: "Recovery codes" })
    .getByRole("listitem")
    .allInnerTexts();
  assert.equal(codes.length, 10);
  await shot(page, "recovery-codes");
  await page.reload();
  assert.equal(await page.getByRole("list", { name: "Recovery codes" }).count(), 0, "shown once");
  await signOut(page);

  // The password alone opens no session: the code page asks for the code.
  await signIn(page, email);
  await page.getByRole("button", { name: "Verify", exact: true }).waitFor();
  await shot(page, "sign-in-code");
  assert.equal(
    (await page.context().cookies()).some((c) => c.name === "hub_session"),
    false,
    "no session before the code",
  );
  // The code that turned two-factor on is refused again (the same code, not the current step's: a slow
  // sign-in on a loaded machine can cross into the next 30 s step).
  await page.getByRole("textbox", { name: "Code", exact: true }).fill(setUpCode);
  await page.getByRole("button", { name: "Verify", exact: true }).click();
  await page.getByText("This code is not right, or was already used.").waitFor();
  f.clock.advance(30_000);
  await page.getByRole("textbox", { name: "Code", exact: true }).fill(totpCode(secret, f.clock.now()));
  await page.getByRole("button", { name: "Verify", exact: true }).click();
  await page.getByRole("heading", { name: "Overview" }).waitFor();
  await signOut(page);

  // A recovery code signs in once; its second use is refused.
  for (const attempt of ["first", "second"]) {
    await signIn(page, email);
    await page.getByRole("textbox", { name: "Code", exact: true }).fill(codes[0]!);
    await page.getByRole("button", { name: "Verify", exact: true }).click();
    if (attempt === "first") {
      await page.getByRole("heading", { name: "Overview" }).waitFor();
      await signOut(page);
    } else await page.getByText("This code is not right, or was already used.").waitFor();
  }

  // Now the organization requires two-factor: a member without it is sent to set it up.
  const other = `tf-other-${Date.now()}@example.com`;
  const { invite: otherInvite } = await f.admin.inviteMember({ orgId, email: other });
  f.clock.advance(30_000);
  await page.getByRole("textbox", { name: "Code", exact: true }).fill(totpCode(secret, f.clock.now()));
  await page.getByRole("button", { name: "Verify", exact: true }).click();
  await page.getByRole("link", { name: "Members", exact: true }).click();
  await page.getByRole("button", { name: "Require two-factor authentication", exact: true }).click();
  await page.getByText("Two-factor authentication is now required").waitFor();
  await page
    .getByRole("row", { name: new RegExp(email) })
    .getByText("on", { exact: true })
    .waitFor();
  const second = await newPage();
  await second.goto(`${f.url}/sign-in/${otherInvite.token}`);
  await second.getByLabel("New password").fill(PASSWORD);
  await second.getByLabel("Confirm password").fill(PASSWORD);
  await second.getByRole("button", { name: "Set password and sign in" }).click();
  await second
    .getByText("Your organization requires two-factor authentication. Set it up to continue.")
    .waitFor();
  await second.goto(`${f.url}/keys`);
  await second.getByRole("button", { name: "Set up two-factor authentication", exact: true }).waitFor();
  await shot(second, "two-factor-required");

  const actions = (await createAuditStore(f.db.sql).listAuditEntries({ limit: 100, orgId })).map(
    (entry) => `${entry.action} by ${entry.actor}`,
  );
  assert.ok(actions.includes(`account.two-factor-on by ${email}`), actions.join(", "));
  assert.ok(actions.includes(`organization.require-two-factor by ${email}`), actions.join(", "));
});

test("in a real browser: an operator lists operators and disables an organization", { skip }, async () => {
  const { orgId, projectId } = await f.organization("Disabled Co");
  const { apiKey } = await f.admin.createKey({ orgId, label: "backend" });
  const { invite } = await f.admin.inviteOperator({ email: `ops-${Date.now()}@example.com` });
  await f.admin.inviteOperator({ email: `ops2-${Date.now()}@example.com` });
  const page = await newPage();
  await page.goto(`${f.url}/sign-in/${invite.token}`);
  await page.getByLabel("New password").fill(PASSWORD);
  await page.getByLabel("Confirm password").fill(PASSWORD);
  await page.getByRole("button", { name: "Set password and sign in" }).click();
  await page.getByRole("link", { name: "Operators", exact: true }).click();
  await page.getByRole("table", { name: "Operators" }).waitFor();
  await shot(page, "operators");

  await page.goto(`${f.url}/organizations/${orgId}`);
  await page.waitForLoadState("load");
  await page.getByRole("button", { name: "Disable organization", exact: true }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Disable organization", exact: true }).click();
  await page.getByRole("button", { name: "Enable organization", exact: true }).waitFor();
  await shot(page, "organization-disabled");
  const access = createAccessStore(f.db.sql);
  assert.notEqual((await access.findKeyByHash(hashApiKey(apiKey.key)))?.revokedAt ?? null, null);
  assert.equal(await access.findProjectByPublicId(projectId), undefined);
});
