import assert from "node:assert/strict";
import { test } from "node:test";
import { Counter, Registry } from "prom-client";
import { startMetricsListener } from "../src/start-metrics-listener.js";

function registryWith(name: string): Registry {
  const registry = new Registry();
  new Counter({ name, help: name, registers: [registry] }).inc(3);
  return registry;
}

test("the operator listener serves every registry's samples at /metrics on 127.0.0.1 and nothing else", async () => {
  const listener = await startMetricsListener({
    registries: [registryWith("hub_sample_total"), registryWith("gateway_sample_total")],
    port: 0,
  });
  try {
    assert.match(listener.url, /^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const metrics = await fetch(listener.url);
    assert.equal(metrics.status, 200);
    assert.equal(metrics.headers.get("cache-control"), "no-store");
    const text = await metrics.text();
    assert.match(text, /^hub_sample_total 3$/m);
    assert.match(text, /^gateway_sample_total 3$/m);
    const origin = new URL(listener.url).origin;
    for (const path of ["/", "/v1/catalog", "/metricsx", "/readyzz"]) {
      const other = await fetch(`${origin}${path}`);
      assert.equal(other.status, 404, path);
      await other.arrayBuffer();
    }
    const post = await fetch(listener.url, { method: "POST" });
    assert.equal(post.status, 404);
    await post.arrayBuffer();
  } finally {
    await listener.stop();
  }
});

test("a metric registered after the operator listener started is served too", async () => {
  const registry = new Registry();
  const listener = await startMetricsListener({ registries: [registry], port: 0 });
  try {
    new Counter({ name: "late_sample_total", help: "late", registers: [registry] }).inc();
    assert.match(await (await fetch(listener.url)).text(), /^late_sample_total 1$/m);
  } finally {
    await listener.stop();
  }
});

test("the operator listener answers /livez, and /readyz and /healthz with the readiness report (503 when not ready)", async () => {
  let report = { status: "ready", notReady: [] as string[], checks: [] as unknown[] };
  const listener = await startMetricsListener({
    registries: [new Registry()],
    readiness: async () => report,
    port: 0,
  });
  try {
    const origin = new URL(listener.url).origin;
    const live = await fetch(`${origin}/livez`);
    assert.equal(live.status, 200);
    assert.deepEqual(await live.json(), { status: "live" });
    for (const path of ["/readyz", "/healthz"]) {
      const ready = await fetch(`${origin}${path}`);
      assert.equal(ready.status, 200, path);
      assert.deepEqual(await ready.json(), report);
    }
    report = {
      status: "not-ready",
      notReady: ["database"],
      checks: [{ name: "database", ready: false, detail: "ECONNREFUSED", ms: 1 }],
    };
    const notReady = await fetch(`${origin}/readyz`);
    assert.equal(notReady.status, 503);
    assert.deepEqual(await notReady.json(), report);
  } finally {
    await listener.stop();
  }
});

test("the operator listener binds the address it is given, IPv6 too, and its URL brackets it", async () => {
  const listener = await startMetricsListener({
    registries: [registryWith("hub_v6_total")],
    host: "::1",
    port: 0,
  });
  try {
    assert.match(listener.url, /^http:\/\/\[::1\]:\d+\/metrics$/);
    assert.match(await (await fetch(listener.url)).text(), /^hub_v6_total 3$/m);
  } finally {
    await listener.stop();
  }
});
