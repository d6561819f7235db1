import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { createReadiness, type ReadinessCheck } from "../src/metrics/readiness.js";

function counted(name: string, run: ReadinessCheck["run"]): ReadinessCheck & { runs: number } {
  const check = {
    name,
    runs: 0,
    run(signal: AbortSignal) {
      check.runs += 1;
      return run(signal);
    },
  };
  return check;
}

describe("readiness", () => {
  test("names every check that is not ready, with why: a reason, a thrown error, no answer in time", async () => {
    const readiness = createReadiness({
      timeoutMs: 50,
      checks: [
        { name: "database", run: async () => undefined },
        { name: "upstream:a", run: async () => "the upstream answered HTTP 502" },
        {
          name: "redis",
          run: async () => {
            throw new Error("connect ECONNREFUSED");
          },
        },
        { name: "chain:x", run: () => new Promise(() => {}) },
      ],
    });
    const report = await readiness.report();
    assert.equal(report.status, "not-ready");
    assert.deepEqual(report.notReady, ["upstream:a", "redis", "chain:x"]);
    assert.deepEqual(
      report.checks.map(({ name, ready, detail }) => ({ name, ready, detail })),
      [
        { name: "database", ready: true, detail: undefined },
        { name: "upstream:a", ready: false, detail: "the upstream answered HTTP 502" },
        { name: "redis", ready: false, detail: "connect ECONNREFUSED" },
        { name: "chain:x", ready: false, detail: "no answer within 50 ms" },
      ],
    );
  });

  test("upstreams stand in for each other: one down leaves the process ready and listed, all down hold it back", async () => {
    const up = { name: "upstream:a", group: "upstream", run: async () => undefined };
    const down = (name: string) => ({
      name,
      group: "upstream",
      run: async () => "the upstream answered HTTP 502",
    });
    const database = { name: "database", run: async () => undefined };

    const oneDown = await createReadiness({ checks: [database, up, down("upstream:b")] }).report();
    assert.equal(oneDown.status, "ready");
    assert.deepEqual(oneDown.notReady, []);
    assert.deepEqual(
      oneDown.checks.map(({ name, ready }) => ({ name, ready })),
      [
        { name: "database", ready: true },
        { name: "upstream:a", ready: true },
        { name: "upstream:b", ready: false },
      ],
    );

    const allDown = await createReadiness({
      checks: [database, down("upstream:a"), down("upstream:b")],
    }).report();
    assert.equal(allDown.status, "not-ready");
    assert.deepEqual(allDown.notReady, ["upstream:a", "upstream:b"]);
  });

  test("a report is reused within the cache time and shared by callers that ask at once", async () => {
    const check = counted("database", async () => undefined);
    const readiness = createReadiness({ checks: [check], cacheMs: 60_000 });
    const [first, second] = await Promise.all([readiness.report(), readiness.report()]);
    await readiness.report();
    assert.equal(check.runs, 1);
    assert.equal(first.status, "ready");
    assert.deepEqual(second, first);

    const fresh = counted("database", async () => undefined);
    const uncached = createReadiness({ checks: [fresh], cacheMs: 0 });
    await uncached.report();
    await uncached.report();
    assert.equal(fresh.runs, 2);
  });

  test("once stopping, every report says stopping, whatever the checks say", async () => {
    const readiness = createReadiness({ checks: [{ name: "database", run: async () => undefined }] });
    assert.equal((await readiness.report()).status, "ready");
    readiness.markStopping();
    const report = await readiness.report();
    assert.equal(report.status, "stopping");
    assert.deepEqual(report.notReady, []);
  });
});
