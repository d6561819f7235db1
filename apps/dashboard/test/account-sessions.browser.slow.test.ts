import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { after, before, test } from "node:test";
import { createTestDatabases } from "@hub/store";
import { type Browser, chromium } from "playwright-core";
import { type DashboardFixture, openDashboardFixture } from "./dashboard-fixture.js";

const CHROMIUM = "/usr/bin/chromium";
const missing = !existsSync(CHROMIUM);
if (missing && process.env.CI === "true")
  throw new Error(`${CHROMIUM} is missing: CI installs the chromium package (.ci/run)`);
const skip = missing ? `${CHROMIUM} is missing: the browser test is skipped` : false;

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

test("in a real browser: a member sees their sessions on the Account page and ends the other one", {
  skip,
}, async () => {
  const { orgId } = await f.organization("Sessions Inc");
  const email = `sessions-${Date.now()}@example.com`;
  const { invite } = await f.admin.inviteMember({ orgId, email });

  const laptop = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const phone = await browser.newContext({
    viewport: { width: 390, height: 844 },
    userAgent:
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Firefox/128.0 Mobile",
  });
  try {
    const first = await laptop.newPage();
    await first.goto(`${f.url}/sign-in/${invite.token}`);
    await first.getByLabel("New password").fill(PASSWORD);
    await first.getByLabel("Confirm password").fill(PASSWORD);
    await first.getByRole("button", { name: "Set password and sign in" }).click();
    await first.waitForURL(`${f.url}/`);

    const second = await phone.newPage();
    await second.goto(`${f.url}/sign-in`);
    await second.getByLabel("Email").fill(email);
    await second.getByLabel("Password").fill(PASSWORD);
    await second.getByRole("button", { name: "Sign in" }).click();
    await second.waitForURL(`${f.url}/`);

    await first.getByRole("link", { name: "Account" }).click();
    const sessions = first.getByRole("table", { name: "Your sessions" });
    await sessions.waitFor();
    assert.equal(await sessions.getByRole("row").count(), 3, "a header and two sessions");
    assert.equal(await sessions.getByText("this browser").count(), 1);
    assert.equal(await sessions.getByText("Firefox 128 on iPhone OS 17_5").count(), 1);
    assert.equal(await sessions.getByText("127.0.0.1", { exact: true }).count(), 2);
    await first.screenshot({ path: "/tmp/teams-safety-account-sessions.png", fullPage: true });

    await first.getByRole("button", { name: /^End session started / }).click();
    await first.getByText("1 session ended.").waitFor();
    assert.equal(await sessions.getByRole("row").count(), 2, "only this browser's session is left");
    assert.equal(await first.getByRole("button", { name: "End all other sessions" }).count(), 0);
    await first.screenshot({ path: "/tmp/teams-safety-account-sessions-ended.png", fullPage: true });

    await second.goto(`${f.url}/keys`);
    await second.waitForURL(`${f.url}/sign-in`);
    assert.equal(await second.getByRole("button", { name: "Sign in" }).count(), 1, "the phone is signed out");
  } finally {
    await laptop.close();
    await phone.close();
  }
});
