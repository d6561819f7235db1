import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  anyRequestArbitrary,
  type FuzzTarget,
  heapUsedAfterGc,
  routeRequestArbitrary,
  runFuzzProperty,
  startFuzzTarget,
} from "./fixtures/api-fuzz.js";
import { rawRequest } from "./fixtures/raw-http.js";

const FIXED_SEED = 42;
const randomSeed = Math.floor(Math.random() * 2 ** 31);
/** Heap growth allowed over one run: a leak per request would pass it many times over. */
const HEAP_GROWTH_BOUND_BYTES = 64 * 1024 * 1024;

for (const hubTransport of ["in process", "over HTTP"] as const) {
  describe(`fuzz: the real gateway in front of the real hub, ${hubTransport}`, () => {
    let target: FuzzTarget;
    let heapBefore: number | undefined;

    before(async () => {
      target = await startFuzzTarget({ hubTransport });
      await runFuzzProperty(target, routeRequestArbitrary(target), { seed: 1, numRuns: 100 });
      heapBefore = heapUsedAfterGc();
    });
    after(async () => {
      await target.close();
    });

    for (const [name, seed, numRuns] of [
      ["the fixed seed", FIXED_SEED, 450],
      ["a random seed", randomSeed, 100],
    ] as const) {
      test(`requests on every route with wrong fields, ids, credentials and content types answer the envelope (${name})`, async (t) => {
        t.diagnostic(`seed ${seed}`);
        const answers = await runFuzzProperty(target, routeRequestArbitrary(target), { seed, numRuns });
        t.diagnostic(JSON.stringify(answers));
      });

      test(`requests with odd methods, mangled paths and any header set answer the envelope (${name})`, async (t) => {
        t.diagnostic(`seed ${seed}`);
        const answers = await runFuzzProperty(target, anyRequestArbitrary(target), { seed, numRuns });
        t.diagnostic(JSON.stringify(answers));
      });
    }

    test("after the fuzz the gateway still serves GET /v1/catalog and its heap stayed flat", async (t) => {
      const answer = await rawRequest(target.port, [
        `GET /v1/catalog HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: ${target.key}\r\nConnection: close\r\n\r\n`,
      ]);
      assert.equal(answer.status, 200);
      assert.equal(JSON.parse(answer.body.toString("utf8")).success, true);
      const heapAfter = heapUsedAfterGc();
      if (heapBefore === undefined || heapAfter === undefined) {
        t.diagnostic("no garbage collector reachable: heap check skipped");
        return;
      }
      t.diagnostic(`heap ${Math.round(heapBefore / 1e6)} MB -> ${Math.round(heapAfter / 1e6)} MB`);
      assert.ok(
        heapAfter - heapBefore < HEAP_GROWTH_BOUND_BYTES,
        `heap grew ${heapAfter - heapBefore} bytes`,
      );
    });
  });
}
