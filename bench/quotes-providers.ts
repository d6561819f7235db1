// The canned providers of the quotes benchmark, in their own process so that the hub's CPU figures
// are the hub's alone. Started by bench/quotes.ts with one delay per provider as arguments; over IPC it
// sends the providers' URLs, then takes the recorded answers per order type ({ answers: [[type, body]] }).
// A setTimeout(25) fires 0.3-1 ms late (libuv's millisecond clock), more on a loaded machine: every
// answer carries `x-bench-held-ms`, the time this provider really held it (the request's body read to
// the answer's write), and the benchmark takes the hub's overhead above that, not above the nominal delay.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

const answers = new Map<string, string>();
const delays = process.argv.slice(2).map(Number);

const urls = await Promise.all(
  delays.map(async (delayMs) => {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const received = performance.now();
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { supportedTypes: string[] };
        const answer = answers.get(body.supportedTypes[0]!);
        setTimeout(() => {
          res.writeHead(answer ? 200 : 400, {
            "content-type": "application/json",
            "x-bench-held-ms": (performance.now() - received).toFixed(3),
          });
          res.end(answer ?? JSON.stringify({ error: "AGGREGATION_ERROR", message: "none" }));
        }, delayMs);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }),
);
process.on("message", (message: { answers: [string, string][] }) => {
  for (const [type, body] of message.answers) answers.set(type, body);
  process.send!("recorded");
});
process.on("disconnect", () => process.exit(0));
process.send!({ urls });
