// Long fuzz run: the API fuzz properties of apps/gateway/test/api-fuzz.test.ts against the real gateway in
// front of the real hub (in process, then over HTTP), FUZZ_RUNS cases per property (default 50,000) from
// FUZZ_SEED (default random).
// `npm run bench -- fuzz`. A failing case throws with fast-check's seed and path to replay it.
import { loadavg } from "node:os";
import {
  anyRequestArbitrary,
  heapUsedAfterGc,
  routeRequestArbitrary,
  runFuzzProperty,
  startFuzzTarget,
} from "../apps/gateway/test/fixtures/api-fuzz.js";

export async function run() {
  const numRuns = Number(process.env.FUZZ_RUNS ?? 50_000);
  const seed = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
  console.error(`bench fuzz: seed ${seed}, ${numRuns} cases per property`);
  const results: Record<string, unknown> = {};
  for (const hubTransport of ["in process", "over HTTP"] as const) {
    const target = await startFuzzTarget({ hubTransport });
    try {
      const heapBeforeBytes = heapUsedAfterGc();
      const started = performance.now();
      const routes = await runFuzzProperty(target, routeRequestArbitrary(target), { seed, numRuns });
      const anywhere = await runFuzzProperty(target, anyRequestArbitrary(target), { seed, numRuns });
      const seconds = (performance.now() - started) / 1000;
      const heapAfterBytes = heapUsedAfterGc();
      results[hubTransport] = {
        seconds: Math.round(seconds * 10) / 10,
        casesPerSecond: Math.round((2 * numRuns) / seconds),
        heapBeforeMB: heapBeforeBytes === undefined ? null : Math.round(heapBeforeBytes / 1e6),
        heapAfterMB: heapAfterBytes === undefined ? null : Math.round(heapAfterBytes / 1e6),
        answers: { routes, anywhere },
      };
    } finally {
      await target.close();
    }
  }
  return { seed, casesPerProperty: numRuns, loadAverage: loadavg(), ...results };
}
