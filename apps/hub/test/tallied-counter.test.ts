import assert from "node:assert/strict";
import { test } from "node:test";
import { Counter, Registry } from "prom-client";
import { createTalliedCounter } from "../src/metrics/tallied-counter.js";

test("a tallied counter is exposed exactly as prom-client's own counter fed the same calls", async () => {
  const config = {
    name: "calls_total",
    help: "Calls by provider and result.",
    labelNames: ["provider", "result"],
  } as const;
  const ownRegistry = new Registry();
  const own = new Counter({ ...config, registers: [ownRegistry] });
  const talliedRegistry = new Registry();
  const tallied = createTalliedCounter(talliedRegistry, config);
  const calls: [string, string, number | undefined][] = [
    ["p1", "2xx", 0],
    ["p0", "5xx", undefined],
    ["p1", "2xx", undefined],
    ["p0", "", 3],
    ["p1", "timeout", undefined],
    ["p0", "5xx", undefined],
  ];
  for (const [provider, result, value] of calls) {
    own.labels(provider, result).inc(value);
    tallied.inc(provider, result, value);
    assert.equal(await talliedRegistry.metrics(), await ownRegistry.metrics());
  }
});
