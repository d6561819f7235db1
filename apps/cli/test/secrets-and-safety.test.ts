import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { after, test } from "node:test";
import { pino } from "pino";
import { readProviderHeaderFiles } from "../src/configured-providers.js";
import { stackLoggerOptions } from "../src/create-stack-logger.js";
import { parseStackConfig } from "../src/stack-config.js";
import { isLoopbackHost, parseRoles, unsafeSettings } from "../src/stack-roles.js";

const dir = mkdtempSync(join(tmpdir(), "hub-secrets-"));
after(() => rmSync(dir, { recursive: true, force: true }));

function secretFile(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const SECRET = "s".repeat(40);

test("each secret variable can be given as NAME_FILE, read once with its trailing newline dropped", () => {
  const config = parseStackConfig({
    DATABASE_URL_FILE: secretFile("db", "postgres://hub:pw@db.internal:5432/hub\n"),
    REDIS_URL_FILE: secretFile("redis", "redis://:pw@redis.internal:6379/0\r\n"),
    HUB_GATEWAY_SECRET_FILE: secretFile("secret", `${SECRET}\n`),
    HUB_CHAIN_RPC_URLS_FILE: secretFile("rpc", "eip155:1=https://eth.example/v2/AbCdEf0123456789xyz"),
  });
  assert.equal(config.DATABASE_URL, "postgres://hub:pw@db.internal:5432/hub");
  assert.equal(config.REDIS_URL, "redis://:pw@redis.internal:6379/0");
  assert.equal(config.HUB_GATEWAY_SECRET, SECRET);
  // A chain may have several URLs (failover): the variable parses to a list per chain.
  assert.deepEqual(config.HUB_CHAIN_RPC_URLS, { "eip155:1": ["https://eth.example/v2/AbCdEf0123456789xyz"] });
});

test("NAME and NAME_FILE both set, an unreadable file and an empty one each fail the start, listed together", () => {
  assert.throws(
    () =>
      parseStackConfig({
        HUB_GATEWAY_SECRET: SECRET,
        HUB_GATEWAY_SECRET_FILE: secretFile("both", SECRET),
        DATABASE_URL_FILE: join(dir, "missing"),
        REDIS_URL_FILE: secretFile("empty", "\n"),
        GATEWAY_PORT: "http",
      }),
    (error: Error) => {
      assert.match(error.message, /HUB_GATEWAY_SECRET_FILE: HUB_GATEWAY_SECRET is set too; give one of them/);
      assert.match(error.message, /DATABASE_URL_FILE: cannot read .*missing \(ENOENT\)/);
      assert.match(error.message, /REDIS_URL_FILE: .*empty is empty/);
      assert.match(error.message, /GATEWAY_PORT/);
      return true;
    },
  );
});

test("a file's value still meets the variable's rule (a short gateway secret is refused)", () => {
  assert.throws(
    () => parseStackConfig({ HUB_GATEWAY_SECRET_FILE: secretFile("short", "too-short\n") }),
    /HUB_GATEWAY_SECRET/,
  );
});

test("a provider header given as { file } is read from that file; an unreadable one names the provider", async () => {
  const list = await readProviderHeaderFiles([
    {
      id: "oif",
      baseUrl: "https://oif.example",
      headers: { authorization: { file: secretFile("bearer", "Bearer abc\n") }, "x-plain": "v" },
    },
  ]);
  assert.deepEqual((list as { headers: unknown }[])[0]?.headers, {
    authorization: "Bearer abc",
    "x-plain": "v",
  });
  await assert.rejects(
    readProviderHeaderFiles([{ id: "ext", headers: { "x-key": { file: join(dir, "nope") } } }]),
    /header x-key of provider ext: cannot read .*nope \(ENOENT\)/,
  );
});

test("the stack's logger writes no URL whole: neither in a message nor in an error", () => {
  const lines: string[] = [];
  const logger = pino(
    stackLoggerOptions("info"),
    new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    }),
  );
  const rpc = "https://eth-mainnet.g.alchemy.com/v2/AbCdEf0123456789xyzQ";
  const failure = new Error(`HTTP request failed. URL: ${rpc}`, {
    cause: new Error("connect to postgres://hub:hunter2@db:5432/hub refused"),
  });
  Object.assign(failure, { url: rpc });
  logger.error({ err: failure }, `chain ${rpc} unreachable`);
  logger.warn(`database postgres://hub:hunter2@db:5432/hub?sslmode=require down`);
  const text = lines.join("");
  assert.doesNotMatch(text, /AbCdEf0123456789xyzQ|hunter2|sslmode=require/);
  assert.match(text, /https:\/\/eth-mainnet\.g\.alchemy\.com\/v2\/\*\*\*/);
  assert.match(text, /postgres:\/\/\*\*\*@db:5432\/hub\?sslmode=\*\*\*/);
});

test("--only takes gateway, hub and dashboard, comma-separated; anything else is refused", () => {
  assert.deepEqual([...parseRoles(undefined)], ["gateway", "hub", "dashboard"]);
  assert.deepEqual([...parseRoles("gateway")], ["gateway"]);
  assert.deepEqual([...parseRoles("hub,dashboard")], ["hub", "dashboard"]);
  assert.throws(
    () => parseRoles("reconciler"),
    /--only takes a comma-separated list of gateway, hub, dashboard/,
  );
});

test("loopback is 127.0.0.0/8, ::1 and localhost; unspecified and other addresses are not", () => {
  for (const host of ["127.0.0.1", "127.0.0.2", "::1", "0:0:0:0:0:0:0:1", "localhost"])
    assert.ok(isLoopbackHost(host), host);
  for (const host of ["0.0.0.0", "::", "10.0.0.5", "fd00::1", "hub.internal"])
    assert.ok(!isLoopbackHost(host), host);
});

const SPLIT_BASE = { HUB_DEVNET: "0", DATABASE_URL: "postgres://127.0.0.1:5432/test" };

test("each unsafe setting is refused with its own message; a safe split passes", () => {
  const refusals = (env: Record<string, string>, only?: string) =>
    unsafeSettings(parseStackConfig(env), parseRoles(only));
  assert.deepEqual(refusals({}), []);
  assert.deepEqual(refusals({ HUB_HOST: "0.0.0.0" }), [
    "HUB_HOST=0.0.0.0 lets other machines reach the hub: set HUB_GATEWAY_SECRET (32 or more characters, the same on every gateway)",
  ]);
  assert.deepEqual(refusals({ HUB_HOST: "0.0.0.0", HUB_GATEWAY_SECRET: SECRET }), []);
  assert.deepEqual(refusals(SPLIT_BASE, "gateway"), [
    "--only gateway runs the gateway and the hub apart: set HUB_GATEWAY_SECRET (32 or more characters), the same in both",
  ]);
  assert.deepEqual(refusals({ ...SPLIT_BASE, HUB_GATEWAY_SECRET: SECRET }, "gateway"), []);
  assert.deepEqual(refusals(SPLIT_BASE, "dashboard"), []);
  assert.deepEqual(refusals({ METRICS_HOST: "0.0.0.0" }), [
    "METRICS_HOST=0.0.0.0 exposes the operator listener, which has no authentication: bind it to loopback, or set METRICS_ALLOW_REMOTE=1 on a private network",
  ]);
  assert.deepEqual(refusals({ METRICS_HOST: "10.0.0.5", METRICS_ALLOW_REMOTE: "1" }), []);
  assert.deepEqual(refusals({ HUB_GATEWAY_SECRET: SECRET }, "hub"), [
    "--only runs part of the stack: set HUB_DEVNET=0 (the devnet runs with the whole stack only)",
    "--only runs part of the stack: set DATABASE_URL (the embedded database has one opener, so the parts cannot share it)",
  ]);
});
