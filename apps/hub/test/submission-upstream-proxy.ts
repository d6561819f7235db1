import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { request } from "undici";

/**
 * The upstream as the hub sees it in the submission tests: a pass-through in front of the devnet's OIF
 * aggregator that counts every order forward by the upstream quote id, and can go down (its port
 * refuses connections, so nothing can be sent) and come back on the same port.
 */
/** One call that went through the proxy and got an answer: bodies parsed as JSON when they are. */
export interface UpstreamExchange {
  method: string;
  path: string;
  request: unknown;
  status: number;
  answer: unknown;
}

export interface UpstreamProxy {
  /** The provider baseUrl to configure. */
  readonly url: string;
  /** Order submissions received (either dialect), per upstream quoteId, counted on receipt (answered or not). */
  readonly forwards: Map<string, number>;
  forwardsOf(upstreamQuoteId: string): number;
  /** Every answered call, in order of answer. */
  readonly exchanges: UpstreamExchange[];
  goDown(): Promise<void>;
  comeBack(): Promise<void>;
  close(): Promise<void>;
}

function jsonOr(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startUpstreamProxy(targetBaseUrl: string): Promise<UpstreamProxy> {
  const forwards = new Map<string, number>();
  const exchanges: UpstreamExchange[] = [];
  const sockets = new Set<Socket>();
  let port = 0;
  let server: Server | undefined;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    let quoteId: string | undefined;
    if (req.method === "POST" && (req.url === "/api/v1/orders" || req.url === "/v1/orders")) {
      try {
        // The reference aggregator's body echoes the quote; the specification's names it.
        const sent = JSON.parse(body.toString("utf8")) as {
          quoteResponse?: { quoteId?: string };
          quoteId?: string;
        };
        quoteId = sent.quoteResponse?.quoteId ?? sent.quoteId;
      } catch {
        quoteId = "(unparsable)";
      }
      forwards.set(quoteId ?? "(none)", (forwards.get(quoteId ?? "(none)") ?? 0) + 1);
    }
    try {
      const upstream = await request(`${targetBaseUrl}${req.url ?? ""}`, {
        method: req.method as "GET" | "POST",
        headers: { "content-type": req.headers["content-type"] ?? "application/json" },
        ...(req.method === "GET" ? {} : { body }),
      });
      const text = await upstream.body.text();
      exchanges.push({
        method: req.method ?? "GET",
        path: req.url ?? "",
        request: body.length === 0 ? undefined : jsonOr(body.toString("utf8")),
        status: upstream.statusCode,
        answer: jsonOr(text),
      });
      const headers: Record<string, string> = { "content-type": "application/json" };
      const retryAfter = upstream.headers["retry-after"];
      if (typeof retryAfter === "string") headers["retry-after"] = retryAfter;
      res.writeHead(upstream.statusCode, headers);
      res.end(text);
    } catch {
      req.socket.destroy();
    }
  }

  async function listen(): Promise<void> {
    const next = createServer((req, res) => void handle(req, res));
    next.on("connection", (socket) => {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      next.once("error", reject);
      next.listen(port, "127.0.0.1", () => resolve());
    });
    port = (next.address() as AddressInfo).port;
    server = next;
  }

  async function shut(): Promise<void> {
    const current = server;
    server = undefined;
    if (!current) return;
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => current.close(() => resolve()));
  }

  await listen();
  return {
    url: `http://127.0.0.1:${port}`,
    forwards,
    forwardsOf: (upstreamQuoteId) => forwards.get(upstreamQuoteId) ?? 0,
    exchanges,
    goDown: shut,
    comeBack: listen,
    close: shut,
  };
}
