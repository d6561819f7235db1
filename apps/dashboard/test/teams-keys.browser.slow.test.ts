import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { after, before, test } from "node:test";
import { hashApiKey } from "@hub/contract";
import { createAccessStore, createTestDatabases, createUsageStore, type KeyUsageCount } from "@hub/store";
import { type Browser, chromium, type Page } from "playwright-core";
import { type DashboardFixture, openDashboardFixture } from "./dashboard-fixture.js";

const CHROMIUM = "/usr/bin/chromium";
const missing = !existsSync(CHROMIUM);
if (missing && process.env.CI === "true")
  throw new Error(`${CHROMIUM} is missing: CI installs the chromium package (.ci/run)`);
const skip = missing ? `${CHROMIUM} is missing: the browser suite is skipped` : false;

const databases = createTestDatabases({ databaseUrl: undefined });
const PASSWORD = "a long browser password";
const DAY_MS = 86_400_000;
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

async function shot(page: Page, path: string): Promise<void> {
  await page.screenshot({ path, fullPage: true });
  console.log(`# screenshot ${path}`);
}

test("in a real browser: a member disables a key and enables it again through the dialogs, and reads each key's calls per day", {
  skip,
}, async () => {
  const { orgId } = await f.organization("Keys Co");
  const { invite } = await f.admin.inviteMember({ orgId, email: `keys-${Date.now()}@example.com` });
  const { apiKey: checkout } = await f.admin.createKey({ orgId, label: "checkout backend" });
  const { apiKey: reports } = await f.admin.createKey({ orgId, label: "nightly reports" });
  await f.admin.createKey({ orgId, label: "staging" });

  // 30 days of calls: the checkout backend quotes, orders and polls every day; the reports job reads
  // the catalog and order lists on a few days.
  const todayMs = Math.floor(f.clock.now() / DAY_MS) * DAY_MS;
  const counts: KeyUsageCount[] = [];
  for (let daysAgo = 29; daysAgo >= 0; daysAgo -= 1) {
    const minute = new Date(todayMs - daysAgo * DAY_MS + 9 * 3_600_000);
    const wave = 1 + ((29 - daysAgo) % 7);
    const add = (keyId: string, routeKind: KeyUsageCount["routeKind"], count: number) => {
      if (count > 0) counts.push({ orgId, keyId, minute, routeKind, count });
    };
    add(checkout.keyId, "quote", 40 * wave);
    add(checkout.keyId, "order", 6 * wave);
    add(checkout.keyId, "status", 25 * wave);
    add(checkout.keyId, "other", 2);
    if (daysAgo % 5 === 0) add(reports.keyId, "other", 30);
  }
  await createUsageStore(f.db.sql).addUsage([], counts);
  const quotes = counts
    .filter((c) => c.keyId === checkout.keyId && c.routeKind === "quote")
    .reduce((sum, c) => sum + c.count, 0);

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") problems.push(message.text());
  });
  await page.goto(`${f.url}/sign-in/${invite.token}`);
  await page.getByLabel("New password").fill(PASSWORD);
  await page.getByLabel("Confirm password").fill(PASSWORD);
  await page.getByRole("button", { name: "Set password and sign in" }).click();
  await page.getByRole("heading", { name: "Overview" }).waitFor();
  await page.getByRole("link", { name: "API keys", exact: true }).click();
  await page.getByRole("heading", { name: "API keys", exact: true }).waitFor();

  const usage = page.getByRole("table", { name: "Calls per key over the last 30 days, by route kind" });
  for (const header of ["Key", "Per day", "Quotes", "Orders", "Status reads", "Other", "Total"])
    await usage.getByRole("columnheader", { name: header, exact: true }).waitFor();
  const checkoutRow = usage.getByRole("row", { name: /checkout backend/ });
  await checkoutRow.getByRole("img", { name: /^checkout backend: \d+ calls in 30 days$/ }).waitFor();
  assert.equal(await checkoutRow.getByRole("cell").nth(1).innerText(), String(quotes));
  await usage
    .getByRole("row", { name: /staging/ })
    .getByRole("cell", { name: "0", exact: true })
    .first()
    .waitFor();
  await page.getByText("Calls per day: checkout backend", { exact: true }).click();
  const days = page.getByRole("table", { name: "Calls per day with checkout backend, newest first" });
  await days.getByRole("row").nth(30).waitFor();
  assert.equal(await days.getByRole("row").count(), 31, "a header and 30 days with calls");
  await page.getByText("Calls per day: checkout backend", { exact: true }).click();
  await shot(page, "/tmp/teams-keys.png");

  const lookup = async () =>
    (await createAccessStore(f.db.sql).findKeyByHash(hashApiKey(checkout.key)))?.revokedAt ?? null;
  await page.getByRole("button", { name: "Disable checkout backend", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Disable checkout backend?" });
  await dialog
    .getByText("Calls with it are refused within 2 seconds, until you enable it again.", { exact: false })
    .waitFor();
  await shot(page, "/tmp/teams-keys-disable-dialog.png");
  await dialog.getByRole("button", { name: "Disable key", exact: true }).click();
  const enable = page.getByRole("button", { name: "Enable checkout backend", exact: true });
  await enable.waitFor();
  const keys = page.getByRole("table", { name: "API keys" });
  await keys
    .getByRole("row", { name: /checkout backend/ })
    .getByText("disabled", { exact: true })
    .waitFor();
  assert.equal(await page.getByRole("button", { name: "Disable checkout backend", exact: true }).count(), 0);
  assert.equal(await page.getByRole("link", { name: "Rotate checkout backend", exact: true }).count(), 0);
  assert.notEqual(await lookup(), null, "the gateway's lookup reads the key as refused");
  await shot(page, "/tmp/teams-keys-disabled.png");

  await enable.click();
  const enableDialog = page.getByRole("dialog", { name: "Enable checkout backend?" });
  await enableDialog.getByRole("button", { name: "Cancel", exact: true }).click();
  await enableDialog.waitFor({ state: "hidden" });
  assert.notEqual(await lookup(), null, "cancelled: still disabled");
  await enable.click();
  await enableDialog.getByRole("button", { name: "Enable key", exact: true }).click();
  await page.getByRole("button", { name: "Disable checkout backend", exact: true }).waitFor();
  await keys
    .getByRole("row", { name: /checkout backend/ })
    .getByText("active", { exact: true })
    .waitFor();
  assert.equal(await lookup(), null);
  assert.deepEqual(problems, [], "a clean console");
  await context.close();
});
