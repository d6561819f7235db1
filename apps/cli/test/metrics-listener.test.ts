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
    for (const path of ["/", "/v1/catalog", "/metricsx", "/healthz"]) {
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
