// The benchmark's load generator, run as its own process so it never shares a thread with the server
// it measures: `node --import tsx bench/gateway-load.ts` reads its JSON options from stdin (or the
// first argument) and prints one JSON result line.
import { readFileSync } from "node:fs";
import autocannon from "autocannon";

interface LoadOptions {
  url: string;
  headers: Record<string, string>;
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
  /** Fixed total rate (requests/s); absent means as fast as the server answers. */
  overallRate?: number;
  /** Paths each connection requests in turn (GET, the same headers); absent means the url's own path. */
  paths?: string[];
}

function once(options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

const options = JSON.parse(process.argv[2] ?? readFileSync(0, "utf8")) as LoadOptions;
const base: autocannon.Options = {
  url: options.url,
  headers: options.headers,
  connections: options.connections,
  pipelining: 1,
  ...(options.paths === undefined
    ? {}
    : {
        requests: options.paths.map((path) => ({ method: "GET" as const, path, headers: options.headers })),
      }),
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
