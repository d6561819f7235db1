import type { IncomingMessage, ServerResponse } from "node:http";
import { answerItself } from "./answer-itself.js";
import { forwardCall, forwardToNode, type JsonRpcCall } from "./forward-to-node.js";
import { countFault, type RpcFaultProxyState } from "./rpc-fault-proxy-state.js";

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

/** Forwards one request to the node, or answers it with the faults set. */
export async function handleProxiedRequest(
  state: RpcFaultProxyState,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const body = await readBody(request);
  let parsed: JsonRpcCall | JsonRpcCall[];
  try {
    parsed = JSON.parse(body) as JsonRpcCall | JsonRpcCall[];
  } catch {
    response.writeHead(400, { "content-type": "application/json" });
    response.end(
      JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "parse error" } }),
    );
    return;
  }
  const calls = Array.isArray(parsed) ? parsed : [parsed];
  for (const call of calls) {
    const method = String(call.method);
    state.stats.calls[method] = (state.stats.calls[method] ?? 0) + 1;
  }
  state.seen += 1;
  const nth = state.seen;
  if (state.faults.delayMs) await new Promise((resolve) => setTimeout(resolve, state.faults.delayMs));
  if (injectFault(state, nth, request, response)) return;
  const own = await Promise.all(calls.map((call) => answerItself(state, call)));
  if (own.every((answer) => answer === undefined)) {
    const { status, text } = await forwardToNode(state.target, body);
    response.writeHead(status, { "content-type": "application/json" });
    response.end(text);
    return;
  }
  const answers = await Promise.all(calls.map((call, i) => own[i] ?? forwardCall(state.target, call)));
  response.writeHead(200, { "content-type": "application/json" });
  response.end(JSON.stringify(Array.isArray(parsed) ? answers : answers[0]));
}

/** Resets, 503s or rate-limits the request when a fault says so; answers whether it did. */
function injectFault(
  state: RpcFaultProxyState,
  nth: number,
  request: IncomingMessage,
  response: ServerResponse,
): boolean {
  if (
    state.faults.down ||
    (state.faults.resetEvery !== undefined && nth % state.faults.resetEvery === 0) ||
    (state.faults.resetFraction !== undefined && Math.random() < state.faults.resetFraction)
  ) {
    countFault(state, "reset");
    request.socket.destroy();
    return true;
  }
  if (state.faults.unavailable) {
    countFault(state, "unavailable");
    response.writeHead(503, { "content-type": "text/plain" });
    response.end("no healthy upstream");
    return true;
  }
  if (
    state.faults.rateLimit &&
    (state.faults.rateLimit.count === undefined || state.rateLimited < state.faults.rateLimit.count)
  ) {
    state.rateLimited += 1;
    countFault(state, "rate-limited");
    response.writeHead(429, {
      "content-type": "application/json",
      "retry-after": String(state.faults.rateLimit.retryAfterSeconds),
    });
    response.end(
      JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: 429, message: "Too Many Requests" } }),
    );
    return true;
  }
  return false;
}
