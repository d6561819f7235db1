import assert from "node:assert/strict";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { runCli } from "../src/run-cli.js";

const dir = mkdtempSync(join(tmpdir(), "hub-doctor-settings-"));
after(() => {
  chmodSync(join(dir, "read-only"), 0o700);
  rmSync(dir, { recursive: true, force: true });
});
const secretFile = join(dir, "secret");
writeFileSync(secretFile, `${"s".repeat(40)}\n`);

async function doctorSettings(env: Record<string, string>, ...args: string[]) {
  let stdout = "";
  const code = await runCli(
    ["doctor", "--settings", ...args],
    { dataDir: dir, env },
    {
      stdout: (text) => {
        stdout += text;
      },
      stderr: (text) => {
        stdout += text;
      },
    },
  );
  return { code, stdout };
}

const PRODUCTION = {
  HUB_DEVNET: "0",
  HUB_DATA_DIR: join(dir, "data"),
  DATABASE_URL: "postgres://hub@db.internal:5432/hub",
  REDIS_URL: "redis://redis.internal:6379",
  HUB_GATEWAY_SECRET_FILE: secretFile,
  HUB_CATALOG_FILE: "/etc/hub/catalog.json",
  HUB_PROVIDERS_FILE: "/etc/hub/providers.json",
  GATEWAY_HOST: "0.0.0.0",
  HUB_HOST: "0.0.0.0",
  DASHBOARD_HOST: "0.0.0.0",
  DASHBOARD_PUBLIC_ORIGIN: "https://dashboard.example.com",
  GATEWAY_PUBLIC_BASE_URL: "https://api.example.com/v1",
  GATEWAY_TRUSTED_PROXIES: "10.0.0.0/8",
};

test("hub doctor --settings passes a production environment and exits 0", async () => {
  const { code, stdout } = await doctorSettings(PRODUCTION);
  assert.equal(stdout, "settings: nothing wrong for production\n");
  assert.equal(code, 0);
});

test("hub doctor --settings on the development defaults says what is wrong, one line each, and exits 1", async () => {
  const { code, stdout } = await doctorSettings({ HUB_DATA_DIR: join(dir, "dev") });
  assert.equal(code, 1);
  const lines = stdout.trimEnd().split("\n");
  assert.match(lines[0]!, /^settings: 5 problems, 2 to look at$/);
  for (const expected of [
    /^ {2}FAIL {2}HUB_DEVNET=1 starts the local devnet/,
    /^ {2}FAIL {2}DATABASE_URL is unset/,
    /^ {2}FAIL {2}HUB_GATEWAY_SECRET is unset/,
    /^ {2}FAIL {2}DASHBOARD_PUBLIC_ORIGIN is unset/,
    /^ {2}FAIL {2}GATEWAY_PUBLIC_BASE_URL is unset/,
    /^ {2}warn {2}REDIS_URL is unset/,
    /^ {2}warn {2}GATEWAY_TRUSTED_PROXIES is unset/,
  ])
    assert.ok(
      lines.some((line) => expected.test(line)),
      `${expected} in:\n${stdout}`,
    );
  assert.equal(lines.length, 8);
});

test("each unsafe production setting is its own FAIL line", async () => {
  const readOnly = join(dir, "read-only");
  const { mkdirSync } = await import("node:fs");
  mkdirSync(readOnly, { recursive: true });
  chmodSync(readOnly, 0o500);
  const { code, stdout } = await doctorSettings({
    ...PRODUCTION,
    HUB_GATEWAY_SECRET_FILE: "",
    HUB_DATA_DIR: readOnly,
    METRICS_HOST: "0.0.0.0",
    DASHBOARD_PUBLIC_ORIGIN: "http://dashboard.example.com",
    GATEWAY_PUBLIC_BASE_URL: "http://api.example.com/v1",
    GATEWAY_TRUSTED_PROXIES: "0.0.0.0/0",
  });
  assert.equal(code, 1);
  for (const expected of [
    "HUB_HOST=0.0.0.0 lets other machines reach the hub: set HUB_GATEWAY_SECRET",
    "METRICS_HOST=0.0.0.0 exposes the operator listener, which has no authentication",
    "HUB_GATEWAY_SECRET is unset",
    "DASHBOARD_PUBLIC_ORIGIN=http://dashboard.example.com is not https",
    "GATEWAY_PUBLIC_BASE_URL=http://api.example.com/v1 is not https",
    "GATEWAY_TRUSTED_PROXIES=0.0.0.0/0 trusts every address",
    // Root writes anywhere: the data dir check can only fail for an ordinary user.
    ...(process.getuid?.() === 0 ? [] : [`HUB_DATA_DIR=${readOnly} is not writable (EACCES)`]),
  ])
    assert.ok(stdout.includes(`FAIL  ${expected}`), `${expected} in:\n${stdout}`);
});

test("hub doctor --settings --only gateway skips the dashboard's checks; a bad value is a FAIL line; --json is one object", async () => {
  const gatewayOnly = await doctorSettings(
    { ...PRODUCTION, DASHBOARD_PUBLIC_ORIGIN: "http://x.example" },
    "--only",
    "gateway",
  );
  assert.equal(gatewayOnly.code, 0, gatewayOnly.stdout);
  const bad = await doctorSettings({ ...PRODUCTION, GATEWAY_PORT: "http" });
  assert.equal(bad.code, 1);
  assert.match(bad.stdout, /FAIL {2}GATEWAY_PORT: /);
  const json = await doctorSettings({ ...PRODUCTION, REDIS_URL: "" }, "--json");
  assert.equal(json.code, 0);
  assert.deepEqual(JSON.parse(json.stdout), {
    findings: [
      {
        severity: "warn",
        message: "REDIS_URL is unset: limits and lockouts are counted per process, not across replicas",
      },
    ],
  });
  assert.equal((await doctorSettings(PRODUCTION, "--only", "reconciler")).code, 2);
  assert.equal((await doctorSettings(PRODUCTION, "--url", "http://127.0.0.1:9090")).code, 2);
});
