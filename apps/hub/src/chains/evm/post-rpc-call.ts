import { EvmRpcError, type RpcErrorKind } from "./evm-rpc-error.js";
import { isRangeRefusal } from "./is-range-refusal.js";

const RATE_MESSAGES = /rate limit|too many requests|capacity|exceeded .*(compute units|requests)/i;

/** One JSON-RPC call to one URL: where, under which id and bound, and the clock Retry-After is read against. */
export interface RpcCall {
  url: string;
  host: string;
  id: number;
  method: string;
  params: readonly unknown[];
  timeoutMs: number;
  fetch: typeof fetch;
  now: () => number;
}

type RpcBody = { result?: unknown; error?: { code?: number; message?: string; data?: unknown } };

function retryAfterMs(header: string | null, now: number): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

export function errorKindOf(error: unknown): RpcErrorKind {
  if (error instanceof EvmRpcError) return error.kind;
  const name = (error as { name?: string } | undefined)?.name;
  return name === "TimeoutError" || name === "AbortError" ? "timeout" : "transport";
}

/** The HTTP answer and its whole text; no answer in time, a reset or a broken-off body fails. */
async function fetchAnswer(call: RpcCall): Promise<{ response: Response; text: string }> {
  const { host, method, timeoutMs } = call;
  let response: Response;
  try {
    response = await call.fetch(call.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: call.id, method, params: call.params }),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const kind = errorKindOf(error);
    throw new EvmRpcError(
      kind === "timeout"
        ? `${method} at ${host}: no answer within ${timeoutMs} ms`
        : `${method} at ${host}: ${(error as Error).cause ? String((error as Error & { cause: unknown }).cause) : (error as Error).message}`,
      { kind, host },
    );
  }
  try {
    return { response, text: await response.text() };
  } catch (error) {
    throw new EvmRpcError(`${method} at ${host}: the answer broke off (${(error as Error).message})`, {
      kind: errorKindOf(error),
      host,
    });
  }
}

/** The node's JSON-RPC error, named by what it means for a retry: a range refusal, a rate limit, a server fault. */
function answeredError(call: RpcCall, response: Response, error: NonNullable<RpcBody["error"]>): EvmRpcError {
  const { host, method } = call;
  const code = typeof error.code === "number" ? error.code : undefined;
  const message = String(error.message ?? "no message");
  const kind: RpcErrorKind =
    method === "eth_getLogs" && isRangeRefusal(code, message)
      ? "range"
      : code === 429 || RATE_MESSAGES.test(message)
        ? "rate-limited"
        : response.status >= 500
          ? "server"
          : "rpc";
  const after = retryAfterMs(response.headers.get("retry-after"), call.now());
  return new EvmRpcError(`${method} at ${host}: ${message}${code === undefined ? "" : ` (${code})`}`, {
    kind,
    host,
    ...(code === undefined ? {} : { code }),
    ...(after === undefined ? {} : { retryAfterMs: after }),
    data: error.data,
  });
}

/** Posts one call and reads its result, or throws an EvmRpcError whose kind says whether to retry. */
export async function postRpcCall(call: RpcCall): Promise<unknown> {
  const { host, method } = call;
  const { response, text } = await fetchAnswer(call);
  if (response.status === 429) {
    const after = retryAfterMs(response.headers.get("retry-after"), call.now());
    throw new EvmRpcError(`${method} at ${host}: HTTP 429`, {
      kind: "rate-limited",
      host,
      ...(after === undefined ? {} : { retryAfterMs: after }),
    });
  }
  let body: RpcBody | undefined;
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    body = undefined;
  }
  if (response.status >= 500 && !body?.error) {
    throw new EvmRpcError(`${method} at ${host}: HTTP ${response.status}`, { kind: "server", host });
  }
  if (!body || typeof body !== "object") {
    throw new EvmRpcError(`${method} at ${host}: HTTP ${response.status}, no JSON-RPC answer`, {
      kind: response.ok ? "malformed" : "http",
      host,
    });
  }
  if (body.error) throw answeredError(call, response, body.error);
  if (!response.ok) {
    throw new EvmRpcError(`${method} at ${host}: HTTP ${response.status}`, { kind: "http", host });
  }
  if (!("result" in body)) {
    throw new EvmRpcError(`${method} at ${host}: an answer with neither result nor error`, {
      kind: "malformed",
      host,
    });
  }
  return body.result;
}
