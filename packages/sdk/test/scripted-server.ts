import assert from "node:assert/strict";
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { HubError } from "../src/index.js";

/** One request as the server received it. */
export interface Received {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  body: string;
  at: number;
}

/** One scripted answer: an envelope or raw text with a status, after a delay, or a dropped connection. */
export interface Answer {
  status?: number;
  json?: unknown;
  text?: string;
  headers?: Record<string, string>;
  delayMs?: number;
  /** Close the socket without an answer. */
  drop?: boolean;
}

export type Step = (request: Received) => Answer;

export const ok = (data: unknown, extra: Answer = {}): Answer => ({
  json: { success: true, data, request_id: "req-ok" },
  ...extra,
});

export function fail(
  code: string,
  detail: {
    status?: number;
    params?: string[];
    reference?: string;
    headers?: Record<string, string>;
    message?: string;
  } = {},
): Answer {
  const entry: Record<string, unknown> = { error_code: code };
  if (detail.reference) entry.error_reference = detail.reference;
  if (detail.params) entry.error_params = detail.params;
  return {
    status: detail.status ?? 400,
    headers: detail.headers,
    json: {
      success: false,
      request_id: `req-${code}`,
      ...(detail.message ? { message: detail.message } : {}),
      errors: [entry],
    },
  };
}

/**
 * A real HTTP server on 127.0.0.1 that answers each request with the next step of its script and
 * records what it received. A request past the end of the script answers 599 without the envelope.
 */
export async function scriptedServer(script: Step[]) {
  const received: Received[] = [];
  const steps = [...script];
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const request: Received = {
      method: req.method ?? "",
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body: Buffer.concat(chunks).toString("utf8"),
      at: Date.now(),
    };
    received.push(request);
    const step = steps.shift();
    const answer: Answer = step ? step(request) : { status: 599, text: "script exhausted" };
    if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
    if (answer.drop) {
      req.socket.destroy();
      return;
    }
    if (res.destroyed) return;
    const body = answer.json === undefined ? (answer.text ?? "") : JSON.stringify(answer.json);
    res.writeHead(answer.status ?? 200, {
      "content-type": answer.json === undefined ? "text/html" : "application/json",
      "x-request-id": "req-header",
      ...answer.headers,
    });
    res.end(body);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    received,
    /** "METHOD /path" of every request, in order, without the /v1 prefix. */
    calls: () => received.map((r) => `${r.method} ${r.path.replace(/^\/v1/, "")}`),
    remaining: () => steps.length,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}

/** The HubError a call throws; fails when it resolves or throws anything else. */
export async function rejection(promise: Promise<unknown>): Promise<HubError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof HubError, `a HubError, got ${String(error)}`);
    return error;
  }
  assert.fail("expected the call to throw");
}
