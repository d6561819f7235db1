import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A JSON-RPC proxy in front of one anvil that records how many calls it holds at once, delays each
 * answer, and can hold back the eth_getLogs that starts at one block until the test lets it go. The
 * fault-injecting proxy (apps/devnet/src/rpc-proxy) has no per-range hold or concurrency count.
 */
export interface RecordingRpcProxy {
  readonly url: string;
  /** Most calls in flight at once, of any method and of eth_getLogs. */
  maxInFlight(): { all: number; getLogs: number };
  /** fromBlock of every eth_getLogs answered, in the order the answers went out. */
  answeredLogRanges(): number[];
  /** Holds eth_getLogs calls from this block until releaseHeld(). */
  holdLogsFrom(block: number): void;
  releaseHeld(): void;
  close(): Promise<void>;
}

interface RpcCall {
  id?: unknown;
  method?: string;
  params?: unknown[];
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

export async function startRecordingRpcProxy(target: string, delayMs: number): Promise<RecordingRpcProxy> {
  let inFlight = 0;
  let logsInFlight = 0;
  const max = { all: 0, getLogs: 0 };
  const answered: number[] = [];
  let heldFrom: number | undefined;
  let releaseHeld: () => void = () => {};
  let held = Promise.resolve();

  async function answer(text: string): Promise<string> {
    const parsed = JSON.parse(text) as RpcCall | RpcCall[];
    const calls = Array.isArray(parsed) ? parsed : [parsed];
    const logs = calls.filter((entry) => entry.method === "eth_getLogs");
    inFlight += calls.length;
    logsInFlight += logs.length;
    max.all = Math.max(max.all, inFlight);
    max.getLogs = Math.max(max.getLogs, logsInFlight);
    try {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      const froms = logs.map((entry) => Number((entry.params?.[0] as { fromBlock?: string })?.fromBlock));
      if (heldFrom !== undefined && froms.includes(heldFrom)) await held;
      const response = await fetch(target, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: text,
      });
      const body = await response.text();
      answered.push(...froms.filter((from) => !Number.isNaN(from)));
      return body;
    } finally {
      inFlight -= calls.length;
      logsInFlight -= logs.length;
    }
  }

  const server: Server = createServer((request, response) => {
    readBody(request)
      .then(answer)
      .then((body) => {
        response.writeHead(200, { "content-type": "application/json" });
        response.end(body);
      })
      .catch((error: unknown) => {
        response.writeHead(502);
        response.end(String(error));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    maxInFlight: () => ({ ...max }),
    answeredLogRanges: () => [...answered],
    holdLogsFrom(block) {
      heldFrom = block;
      held = new Promise((resolve) => {
        releaseHeld = resolve;
      });
    },
    releaseHeld: () => releaseHeld(),
    close: () =>
      new Promise((resolve) => {
        releaseHeld();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
