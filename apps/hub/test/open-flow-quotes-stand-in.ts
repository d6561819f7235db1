import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { request } from "undici";

// biome-ignore lint/suspicious/noExplicitAny: the stand-in reads and doctors upstream JSON.
type Json = Record<string, any>;

/** What the stand-in answers one POST /quote with. */
export interface StandInAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/**
 * An external aggregator stand-in: answers POST /quote through `answer` when set, else forwards to a
 * real external aggregator (the devnet's) and passes its 200 answers through `doctor`. Without a target
 * `answer` takes every POST, whatever its path.
 */
export interface ExternalStandIn {
  /** Configure it as an external-aggregator provider's baseUrl. */
  readonly url: string;
  answer: ((request: Json) => StandInAnswer) | undefined;
  doctor: ((quote: Json) => Json) | undefined;
  delayMs: number;
  /** Bodies of the POST /quote calls received. */
  readonly received: Json[];
  close(): Promise<void>;
}

async function readJson(req: IncomingMessage): Promise<Json> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? (JSON.parse(text) as Json) : {};
}

export async function startExternalStandIn(targetBaseUrl?: string): Promise<ExternalStandIn> {
  const timers = new Set<NodeJS.Timeout>();
  const state: ExternalStandIn = {
    url: "",
    answer: undefined,
    doctor: undefined,
    delayMs: 0,
    received: [],
    close: async () => {},
  };

  async function answerOf(req: IncomingMessage): Promise<StandInAnswer> {
    const body = req.method === "POST" ? await readJson(req) : undefined;
    if (body) state.received.push(body);
    if (state.delayMs > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          resolve();
        }, state.delayMs);
        timers.add(timer);
      });
    }
    // Without a target it answers every POST, so it can also stand in for an OIF aggregator (any path).
    if (state.answer && body && (req.url === "/quote" || !targetBaseUrl)) return state.answer(body);
    if (!targetBaseUrl) return { status: 404, body: { error: "QUOTE_NOT_FOUND", message: "no target" } };
    const upstream = await request(`${targetBaseUrl}${req.url ?? ""}`, {
      method: req.method as "GET" | "POST",
      headers: { "content-type": "application/json" },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    let answer = (await upstream.body.json()) as Json;
    if (state.doctor && req.url === "/quote" && upstream.statusCode === 200) {
      answer = state.doctor(structuredClone(answer));
    }
    return { status: upstream.statusCode, body: answer };
  }

  const server: Server = createServer((req, res) => {
    answerOf(req)
      .then((answer) => {
        res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers });
        res.end(typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body));
      })
      .catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(599);
        res.end(String(error));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
  return state;
}
