// The canned providers of the quotes benchmark, in their own process so that the hub's CPU figures
// are the hub's alone. Started by bench/quotes.ts with one delay per provider as arguments; over IPC it
// sends the providers' URLs, then takes the recorded answers per order type ({ answers: [[type, body]] }).
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
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { supportedTypes: string[] };
        const answer = answers.get(body.supportedTypes[0]!);
        setTimeout(() => {
          res.writeHead(answer ? 200 : 400, { "content-type": "application/json" });
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
