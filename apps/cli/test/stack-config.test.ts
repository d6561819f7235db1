import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { parseStackConfig, stackConfigSchema } from "../src/stack-config.js";

const readme = readFileSync(new URL("../../../README.md", import.meta.url), "utf8");

test("the README's configuration table lists exactly the variables the stack reads", () => {
  const rows = [...readme.matchAll(/^\| `([A-Z_]+)` +\|/gm)].map((m) => m[1]);
  assert.deepEqual([...rows].sort(), Object.keys(stackConfigSchema.shape).sort());
});

test("the README's defaults are the schema's defaults", () => {
  const defaults = parseStackConfig({});
  for (const m of readme.matchAll(/^\| `([A-Z_]+)` +\| `([^`]+)` +\|/gm)) {
    const [, name, shown] = m as unknown as [string, keyof typeof defaults, string];
    const value = defaults[name];
    const rendered = Array.isArray(value)
      ? value.join(",")
      : value === true
        ? "1"
        : value === false
          ? "0"
          : String(value);
    assert.equal(rendered, shown, name);
  }
});

test("an empty environment gives the spec's defaults", () => {
  const config = parseStackConfig({});
  assert.equal(config.GATEWAY_PORT, 8080);
  assert.equal(config.HUB_PORT, 8090);
  assert.equal(config.HUB_TENANT_RPS, 5);
  assert.equal(config.HUB_TENANT_BURST, 20);
  assert.equal(config.HUB_QUOTES_IN_FLIGHT, 64);
  assert.equal(config.GATEWAY_BODY_LIMIT_BYTES, 65536);
  assert.equal(config.HUB_DEVNET, true);
  assert.deepEqual(config.DEVNET_RPC_PORTS, [8545, 8546]);
  assert.equal(config.DEVNET_SOLANA_RPC_PORT, 8899);
});

test("unsigned open-flow registrations are off unless HUB_UNSIGNED_OPEN_FLOW_REGISTRATION turns them on", () => {
  for (const [value, expected] of [
    [undefined, false],
    ["", false],
    ["0", false],
    ["false", false],
    ["1", true],
    ["true", true],
  ] as const) {
    assert.equal(
      parseStackConfig({ HUB_UNSIGNED_OPEN_FLOW_REGISTRATION: value }).HUB_UNSIGNED_OPEN_FLOW_REGISTRATION,
      expected,
      String(value),
    );
  }
  assert.throws(
    () => parseStackConfig({ HUB_UNSIGNED_OPEN_FLOW_REGISTRATION: "yes" }),
    /HUB_UNSIGNED_OPEN_FLOW_REGISTRATION/,
  );
});

test("a bad configuration fails fast listing every problem at once", () => {
  assert.throws(
    () =>
      parseStackConfig({
        GATEWAY_PORT: "http",
        HUB_TENANT_RPS: "-1",
        DEVNET_RPC_PORTS: "8545;8546",
        HUB_DEVNET: "maybe",
      }),
    (error: Error) =>
      ["GATEWAY_PORT", "HUB_TENANT_RPS", "DEVNET_RPC_PORTS", "HUB_DEVNET"].every((name) =>
        error.message.includes(name),
      ),
  );
});

test("GATEWAY_TRUSTED_PROXIES is a comma-separated CIDR list, IPv4 and IPv6; anything else fails fast", () => {
  assert.equal(parseStackConfig({}).GATEWAY_TRUSTED_PROXIES, undefined);
  assert.deepEqual(
    parseStackConfig({ GATEWAY_TRUSTED_PROXIES: "127.0.0.1/32, 10.0.0.0/8,::1/128" }).GATEWAY_TRUSTED_PROXIES,
    ["127.0.0.1/32", "10.0.0.0/8", "::1/128"],
  );
  assert.throws(
    () => parseStackConfig({ GATEWAY_TRUSTED_PROXIES: "10.0.0.0/8,proxy.internal" }),
    (error: Error) => error.message.includes("GATEWAY_TRUSTED_PROXIES"),
  );
});
