// The benchmark's load generator, run as its own process so it never shares a thread with the server
// it measures: `node --import tsx bench/gateway-load.ts '<json options>'` prints one JSON result line.
import autocannon from "autocannon";

interface LoadOptions {
  url: string;
  headers: Record<string, string>;
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
  /** Fixed total rate (requests/s); absent means as fast as the server answers. */
  overallRate?: number;
}

function once(options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

const options = JSON.parse(process.argv[2] ?? "{}") as LoadOptions;
const base: autocannon.Options = {
  url: options.url,
  headers: options.headers,
  connections: options.connections,
  pipelining: 1,
  ...(options.overallRate === undefined ? {} : { overallRate: options.overallRate }),
};
const warmup =
  options.warmupSeconds > 0 ? await once({ ...base, duration: options.warmupSeconds }) : undefined;
const result = await once({ ...base, duration: options.durationSeconds });
process.stdout.write(
  `${JSON.stringify({
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p90Ms: result.latency.p90,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    requests: result.requests.total,
    warmupRequests: warmup?.requests.total ?? 0,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  })}\n`,
);
