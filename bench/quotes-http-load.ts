// The load of the HTTP floor's incoming part (bench/quotes-http-floor.ts), in its own process so that the
// measured process pays only the server's side: POSTs of the quote request's bytes over keep-alive
// connections, `concurrency` at a time. Over IPC: { url, payload, concurrency, rounds } warms up and sets
// the target, { rounds } runs that many; each message is answered once its rounds have ended.
import { Agent, request } from "node:http";

let target: { url: URL; payload: Buffer; concurrency: number; agent: Agent } | undefined;

function post(): Promise<void> {
  const { url, payload, agent } = target!;
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        method: "POST",
        path: url.pathname,
        headers: { "content-type": "application/json", "content-length": String(payload.length) },
      },
      (response) => {
        response.on("data", () => {});
        response.on("end", resolve);
        response.on("error", reject);
      },
    );
    outgoing.on("error", reject);
    outgoing.end(payload);
  });
}

async function run(rounds: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: target!.concurrency }, async () => {
      while (next < rounds) {
        next += 1;
        await post();
      }
    }),
  );
}

process.on("message", (message: { url?: string; payload?: string; concurrency?: number; rounds: number }) => {
  if (message.url !== undefined) {
    target = {
      url: new URL(message.url),
      payload: Buffer.from(message.payload!, "latin1"),
      concurrency: message.concurrency!,
      agent: new Agent({ keepAlive: true, maxSockets: message.concurrency! }),
    };
  }
  run(message.rounds).then(() => process.send!("done"));
});
process.on("disconnect", () => process.exit(0));
