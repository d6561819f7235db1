import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { seedReservation } from "@hub/hub-app/test-store/submission-rows";
import { createTestDatabases, createUsageStore } from "@hub/store";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { type DashboardFixture, openDashboardFixture } from "./dashboard-fixture.js";

const CHROMIUM = "/usr/bin/chromium";
const missing = !existsSync(CHROMIUM);
if (missing && process.env.CI === "true")
  throw new Error(`${CHROMIUM} is missing: CI installs the chromium package (.ci/run)`);
const skip = missing
  ? `${CHROMIUM} is missing (apt-get install -y chromium): the browser suite is skipped`
  : false;
if (skip) console.log(`# ${skip}`);

const databases = createTestDatabases({ databaseUrl: undefined });
const shots = join(tmpdir(), "hub-dashboard-screenshots");
const PASSWORD = "a long browser password";
let f: DashboardFixture;
let context: BrowserContext;
let userDataDir: string;

before(async () => {
  if (skip) return;
  mkdirSync(shots, { recursive: true });
  f = await openDashboardFixture(databases, "pglite", {}, { listen: true });
  userDataDir = mkdtempSync(join(tmpdir(), "hub-chromium-"));
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
    viewport: { width: 1280, height: 860 },
  });
});

after(async () => {
  await context?.close();
  await f?.close();
  await databases.dispose();
  if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
});

async function shot(page: Page, name: string): Promise<void> {
  const path = join(shots, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  console.log(`# screenshot ${path}`);
}

test("in a real browser: an operator creates an organization, invites a member and reconciles a reservation; the member manages keys and origins", {
  skip,
}, async (t) => {
  const page = await context.newPage();
  const errors: string[] = [];
  // A refused form answers 400 with the page and its errors; anything else in the console is a fault.
  page.on("console", (message) => {
    if (message.type() === "error" && !message.text().includes("status of 400")) errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));

  // The first page: its weight and how soon it is usable.
  let bytes = 0;
  for (const path of ["/sign-in", "/assets/dashboard.css", "/assets/dashboard.js"]) {
    bytes += (await (await fetch(`${f.url}${path}`)).arrayBuffer()).byteLength;
  }
  assert.ok(bytes < 200 * 1024, `the first page weighs ${bytes} bytes`);
  const started = performance.now();
  await page.goto(`${f.url}/sign-in`);
  await page.getByRole("button", { name: "Sign in", exact: true }).waitFor();
  const usableMs = performance.now() - started;
  await page.waitForLoadState("load");
  t.diagnostic(`first page (sign-in): ${bytes} bytes of HTML+CSS+JS, usable after ${usableMs.toFixed(0)} ms`);
  await shot(page, "01-sign-in");

  // The operator, from an invite link.
  const { invite: operatorInvite } = await f.admin.inviteOperator({ email: `ops-${Date.now()}@example.com` });
  await page.goto(`${f.url}/sign-in/${operatorInvite.token}`);
  await shot(page, "02-set-password");
  await page.getByLabel("New password").fill(PASSWORD);
  await page.getByLabel("Confirm password").fill(PASSWORD);
  await page.getByRole("button", { name: "Set password and sign in" }).click();
  await page.getByRole("link", { name: "Organizations", exact: true }).waitFor();
  await page.getByRole("link", { name: "Reservations", exact: true }).waitFor();
  await page.getByLabel("Name").fill("Browser <b>Co</b>");
  await page.getByRole("button", { name: "Create organization" }).click();
  await page.getByRole("heading", { name: "Browser <b>Co</b>" }).waitFor();
  const orgId = await page.getByRole("textbox", { name: "Organization id" }).inputValue();
  await page.getByLabel("Email").fill(`member-${Date.now()}@example.com`);
  await page.getByRole("button", { name: "Invite member" }).click();
  const memberLink = await page.getByRole("textbox", { name: "Sign-in link" }).inputValue();
  assert.match(memberLink, new RegExp(`^${f.url}/sign-in/[A-Za-z0-9_-]{43}$`));
  await shot(page, "03-organization");
  await page.getByRole("link", { name: "Organizations", exact: true }).click();
  await shot(page, "04-organizations");

  const reservation = await seedReservation(f.db.sql, { orgId, state: "unknown" });
  await page.getByRole("link", { name: "Reservations", exact: true }).click();
  const row = page.locator("li.reservation", { hasText: reservation });
  await shot(page, "05-reservations");
  await row.getByLabel("On-chain order id").fill("0x1234");
  await row.getByRole("button", { name: "Mark opened", exact: true }).click();
  await page
    .locator("li.reservation", { hasText: reservation })
    .getByText("not an on-chain order id")
    .waitFor();
  await shot(page, "06-reservation-refused");
  await page
    .locator("li.reservation", { hasText: reservation })
    .getByLabel("Note")
    .fill("no Open on either chain");
  await page
    .locator("li.reservation", { hasText: reservation })
    .getByRole("button", { name: "Mark not opened", exact: true })
    .click();
  await page.getByText(`${reservation} is now released.`).waitFor();
  assert.equal((await f.admin.listReservations({ orgId })).reservations[0]?.state, "released");
  await page.getByRole("link", { name: "Audit log", exact: true }).click();
  await page.getByRole("heading", { name: "Audit log" }).waitFor();
  for (const action of ["organization.create", "member.invite", "reservation.mark-not-opened"]) {
    await page.getByText(action, { exact: true }).first().waitFor();
  }
  await shot(page, "06b-audit-log");
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await page.getByRole("button", { name: "Sign in", exact: true }).waitFor();

  // The member, from the link the operator made.
  await page.goto(memberLink);
  await page.getByLabel("New password").fill(PASSWORD);
  await page.getByLabel("Confirm password").fill(PASSWORD);
  await page.getByRole("button", { name: "Set password and sign in" }).click();
  await page.getByRole("heading", { name: "Overview" }).waitFor();
  assert.equal(await page.getByRole("textbox", { name: "Organization id" }).inputValue(), orgId);
  await page.getByRole("button", { name: "Copy Organization id" }).waitFor();
  await shot(page, "07-overview");

  await page.getByRole("link", { name: "API keys", exact: true }).click();
  await shot(page, "08-api-keys-empty");
  await page.getByRole("button", { name: "Create key", exact: true }).click();
  await page.getByRole("button", { name: "Create", exact: true }).click();
  assert.equal(
    await page
      .getByRole("textbox", { name: "Label" })
      .evaluate((input) => (input as unknown as { validity: { valid: boolean } }).validity.valid),
    false,
  );
  await page.getByRole("textbox", { name: "Label" }).fill("web backend");
  await shot(page, "09-create-key");
  await page.getByRole("button", { name: "Create", exact: true }).click();
  const newKey = page.getByRole("textbox", { name: "New API key" });
  const key = await newKey.inputValue();
  assert.match(key, /^svc_sk_[A-Za-z0-9_-]{43}$/);
  assert.equal(await newKey.getAttribute("readonly"), "");
  await page.getByText("will not be shown again").waitFor();
  await shot(page, "10-new-key");
  await page.reload();
  await page.getByRole("button", { name: "Revoke web backend", exact: true }).waitFor();
  assert.equal(await page.getByRole("textbox", { name: "New API key" }).count(), 0, "gone after a reload");
  assert.ok(!(await page.content()).includes(key));

  await page.getByRole("link", { name: "Rotate web backend" }).click();
  await shot(page, "11-rotate");
  await page.getByRole("button", { name: "Rotate", exact: true }).click();
  const rotated = await page.getByRole("textbox", { name: "New API key" }).inputValue();
  assert.notEqual(rotated, key);
  await page.getByText("then revoke the old key").waitFor();
  await shot(page, "12-rotated");

  // The dialog is the script's; without it the same button leads to a confirmation page.
  await page.waitForLoadState("load");
  await page.getByRole("button", { name: "Revoke web backend", exact: true }).click();
  const dialog = page.getByRole("dialog");
  await dialog.waitFor();
  await shot(page, "13-revoke-dialog");
  await dialog.getByRole("button", { name: "Revoke key", exact: true }).click();
  await page.getByRole("button", { name: "Revoke web backend", exact: true }).waitFor({ state: "detached" });
  await page.getByRole("button", { name: "Revoke web backend (new)", exact: true }).waitFor();
  const states = (await f.admin.listKeys({ orgId })).apiKeys.map((k) => [k.label, k.status]);
  assert.deepEqual(states, [
    ["web backend", "revoked"],
    ["web backend (new)", "active"],
  ]);
  await shot(page, "14-api-keys");

  await page.getByRole("link", { name: "Allowed origins", exact: true }).click();
  await page.getByRole("textbox", { name: "Origin" }).fill("https://shop.example/checkout");
  await page.getByRole("button", { name: "Add origin", exact: true }).click();
  await page.getByText("Not an exact origin").waitFor();
  assert.equal(await page.getByRole("textbox", { name: "Origin" }).getAttribute("aria-invalid"), "true");
  await shot(page, "15-origin-refused");
  await page.getByRole("textbox", { name: "Origin" }).fill("https://shop.example");
  await page.getByRole("button", { name: "Add origin", exact: true }).click();
  await page.getByRole("button", { name: "Remove https://shop.example", exact: true }).waitFor();
  await shot(page, "16-origins");
  await page.getByRole("button", { name: "Remove https://shop.example", exact: true }).click();
  await page.getByText("No origins yet").waitFor();

  // Usage as the gateways would have written it: two hours of calls, some refused.
  const hourAgo = Math.floor(Date.now() / 60_000) * 60_000 - 3_600_000;
  await createUsageStore(f.db.sql).addUsage([
    { orgId, minute: new Date(hourAgo), credentialKind: "api_key", code: "", count: 120 },
    {
      orgId,
      minute: new Date(hourAgo),
      credentialKind: "project_id",
      routeKind: "read",
      code: "",
      count: 14,
    },
    { orgId, minute: new Date(hourAgo + 60_000), credentialKind: "api_key", code: "EIN0080", count: 3 },
    { orgId, minute: new Date(hourAgo + 3_600_000), credentialKind: "api_key", code: "", count: 40 },
    // A web page's visitors on the project id: polls, quotes, an order, one address past its bucket.
    ...(
      [
        ["read", "", 2400],
        ["quote", "", 58],
        ["order", "", 3],
        ["read", "EPX0082", 310],
        ["quote", "EPX0080", 2],
      ] as const
    ).map(([routeKind, code, count]) => ({
      orgId,
      minute: new Date(hourAgo + 3_600_000),
      credentialKind: "project_id" as const,
      routeKind,
      code,
      count,
    })),
  ]);
  await page.getByRole("link", { name: "Usage", exact: true }).click();
  await page.getByRole("heading", { name: "Usage" }).waitFor();
  await page.getByText("EIN0080").first().waitFor();
  await page.getByRole("heading", { name: "Project id pool" }).waitFor();
  await page.getByRole("columnheader", { name: "Pool spent (EPX0080)" }).waitFor();
  await shot(page, "16b-usage");

  await page.getByRole("link", { name: "Account", exact: true }).click();
  await page.getByRole("heading", { name: "Account", exact: true, level: 1 }).waitFor();
  await shot(page, "17-account");

  // Keyboard: the skip link comes first and leads to the page's content. The page must have loaded
  // before the first Tab, or the focus moves on the page being left.
  await page.getByRole("link", { name: "API keys", exact: true }).click();
  await page.getByRole("heading", { name: "API keys", exact: true, level: 1 }).waitFor();
  await page.waitForLoadState("load");
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate("document.activeElement?.textContent"), "Skip to content");
  await page.keyboard.press("Tab");
  await shot(page, "18-keyboard-focus");

  assert.deepEqual(errors, [], "no console errors (CSP violations included)");
});

test("in a real browser: /docs lists the reference and the guides, and /docs/api renders the OpenAPI document with Scalar (code samples, a console), nothing from elsewhere", {
  skip,
}, async () => {
  const page = await context.newPage();
  const errors: string[] = [];
  const foreign: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("request", (request) => {
    if (!request.url().startsWith(f.url) && !request.url().startsWith("blob:")) foreign.push(request.url());
  });

  await page.goto(`${f.url}/docs`);
  await shot(page, "docs-index");
  await page.getByRole("link", { name: "API reference" }).click();
  await page.waitForURL(`${f.url}/docs/api`);
  // Scalar renders the document's title, its tags in the sidebar, the server and the credential the
  // console sends (the project id, a placeholder when no member is signed in), and code samples.
  await page.getByRole("heading", { name: /Intent swap and bridge hub API/ }).waitFor({ timeout: 60_000 });
  await page.getByText("Client Libraries").first().waitFor();
  await page.getByText("x-project-id").first().waitFor();
  await shot(page, "docs-api-reference");

  // The error catalogue table is in the rendered reference, EPX0004 (which no path answers) included.
  await page.getByRole("link", { name: "Error codes" }).first().click();
  const unknownRoute = page.getByRole("cell", { name: "EPX0004" }).first();
  await unknownRoute.waitFor({ timeout: 30_000 });
  await unknownRoute.scrollIntoViewIfNeeded();
  assert.ok(await unknownRoute.isVisible());
  await shot(page, "docs-error-codes");

  const catalogue = (await (await fetch(`${f.url}/docs/errors.json`)).json()) as {
    codes: Record<string, { block: string }>;
  };
  assert.equal(catalogue.codes.EIN0080?.block, "busy");
  const guide = await fetch(`${f.url}/docs/guides/lanes.md`);
  assert.equal(guide.headers.get("content-type"), "text/markdown; charset=utf-8");
  assert.deepEqual(foreign, []);
  assert.deepEqual(errors, []);
  await page.close();
});
