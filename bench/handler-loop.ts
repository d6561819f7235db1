// The driver both handler-loop benchmarks share: calls of a gateway handler on fake requests, 16 in
// flight, a warm-up, then rounds of process.cpuUsage() per call printed one JSON line each.
import { profiled } from "./cpu-profile.js";

/** `count` calls of `once` (numbered from 1), 16 in flight. */
export async function runCalls(count: number, once: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next += 1;
      await once(next);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}

/**
 * `rounds` rounds of `calls` calls, after `warmUp` (20,000 calls, then `afterWarmUp`), profiled as
 * `label` when BENCH_CPU_PROFILE_DIR is set; prints each round's CPU µs per call.
 */
export async function measureHandlerLoop(options: {
  label: string;
  calls: number;
  rounds: number;
  once: (i: number) => Promise<void>;
  afterWarmUp?: () => void;
}): Promise<void> {
  const { label, calls, rounds, once } = options;
  await runCalls(20_000, once);
  options.afterWarmUp?.();
  await profiled(label, async () => {
    for (let round = 0; round < rounds; round++) {
      const before = process.cpuUsage();
      await runCalls(calls, once);
      const cpu = process.cpuUsage(before);
      console.log(JSON.stringify({ round, cpuMicrosPerCall: +((cpu.user + cpu.system) / calls).toFixed(2) }));
    }
  });
}
