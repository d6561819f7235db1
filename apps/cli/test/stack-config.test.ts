import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { listenerUrl, parseStackConfig, stackConfigSchema } from "../src/stack-config.js";

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

test("every listener binds 127.0.0.1 unless its *_HOST names an IPv4 or IPv6 address or a host name", () => {
  const hosts = ["GATEWAY_HOST", "DASHBOARD_HOST", "HUB_HOST", "METRICS_HOST"] as const;
  const defaults = parseStackConfig({});
  for (const name of hosts) assert.equal(defaults[name], "127.0.0.1", name);
  for (const value of ["0.0.0.0", "::", "::1", "fd00::5", "127.0.0.2", "hub.internal", "localhost"]) {
    const config = parseStackConfig(Object.fromEntries(hosts.map((name) => [name, value])));
    for (const name of hosts) assert.equal(config[name], value, `${name}=${value}`);
  }
  for (const value of ["[::1]", "http://127.0.0.1", "127.0.0.1:8080", "a b", "-bad"])
    assert.throws(() => parseStackConfig({ GATEWAY_HOST: value }), /GATEWAY_HOST/, value);
});

test("a listener's printed URL brackets IPv6 and shows an unspecified address as its loopback", () => {
  assert.equal(listenerUrl("127.0.0.1", 8080), "http://127.0.0.1:8080");
  assert.equal(listenerUrl("127.0.0.2", 8080), "http://127.0.0.2:8080");
  assert.equal(listenerUrl("::1", 8080), "http://[::1]:8080");
  assert.equal(listenerUrl("fd00::5", 9090), "http://[fd00::5]:9090");
  assert.equal(listenerUrl("0.0.0.0", 8081), "http://127.0.0.1:8081");
  assert.equal(listenerUrl("::", 8081), "http://[::1]:8081");
  assert.equal(listenerUrl("hub.internal", 8090), "http://hub.internal:8090");
});
