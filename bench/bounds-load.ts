// The bounds benchmark's client, in its own process so its CPU time never counts as the server's:
// reads `{url, headers, body, requests, connections}` as JSON on stdin, sends `requests` POSTs over
// `connections` keep-alive connections, and prints one JSON line: the codes seen and the wall times.
import { Pool } from "undici";

interface LoadOptions {
  url: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  requests: number;
  connections: number;
}

let input = "";
for await (const chunk of process.stdin) input += chunk;
const options = JSON.parse(input) as LoadOptions;
const pool = new Pool(options.url, { connections: options.connections });
const codes: Record<string, number> = {};
const wallMs: number[] = [];
let next = 0;

async function worker(): Promise<void> {
  while (next < options.requests) {
    next += 1;
    const started = performance.now();
    const response = await pool.request({
      method: "POST",
      path: options.path,
      headers: options.headers,
      body: options.body,
    });
    const envelope = (await response.body.json()) as {
      errors?: { error_code: string; error_reference?: string }[];
    };
    wallMs.push(performance.now() - started);
    const error = envelope.errors?.[0];
    const code = error
      ? `${error.error_code}${error.error_reference ? ` ${error.error_reference}` : ""}`
      : "OK";
    codes[code] = (codes[code] ?? 0) + 1;
  }
}

await Promise.all(Array.from({ length: options.connections }, () => worker()));
await pool.close();
wallMs.sort((a, b) => a - b);
const at = (q: number) =>
  Number((wallMs[Math.min(wallMs.length - 1, Math.floor(q * wallMs.length))] ?? 0).toFixed(3));
process.stdout.write(`${JSON.stringify({ codes, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: at(1) })}\n`);
