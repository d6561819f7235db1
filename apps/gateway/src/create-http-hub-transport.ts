import type { HubAnswer, HubCall, HubTransport } from "@hub/contract";
import { type Dispatcher, Pool, util } from "undici";
import { HubTransportError } from "./hub-transport-error.js";

/** Where the hub listens and how many keep-alive connections the gateway keeps to it. */
export interface HttpHubTransportConfig {
  readonly url: string;
  readonly connections: number;
  readonly keepAliveTimeoutMs?: number;
}

const EMPTY = Buffer.alloc(0);

function flatten(headers: Record<string, string | string[]>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    flat[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return flat;
}

/**
 * One call on the pool's own handler interface: the answer's chunks are kept as they arrive and joined
 * once, without the response stream, async scope and body copy of undici's `request`.
 */
function dispatch(pool: Pool, call: HubCall): Promise<HubAnswer> {
  return new Promise((resolve, reject) => {
    // A socket call listens for its deadline, so here its signal is made.
    const signal = call.deadline?.signal;
    let abort: ((reason: Error) => void) | undefined;
    let reason: Error | undefined;
    let statusCode = 0;
    let headers: Record<string, string> = {};
    const chunks: Buffer[] = [];
    let size = 0;
    const onAbort = () => {
      reason = (signal?.reason as Error | undefined) ?? new Error("aborted");
      abort?.(reason);
    };
    const settled = () => signal?.removeEventListener("abort", onAbort);
    if (signal?.aborted) reason = (signal.reason as Error | undefined) ?? new Error("aborted");
    else signal?.addEventListener("abort", onAbort, { once: true });
    const handler: Dispatcher.DispatchHandler = {
      onConnect(abortCall) {
        if (reason !== undefined) abortCall(reason);
        else abort = abortCall;
      },
      onHeaders(status, rawHeaders) {
        // An informational answer (1xx) is not the answer.
        if (status < 200) return true;
        statusCode = status;
        headers = flatten(util.parseHeaders(rawHeaders));
        return true;
      },
      onData(chunk) {
        chunks.push(chunk);
        size += chunk.length;
        return true;
      },
      onComplete() {
        settled();
        const body =
          chunks.length === 0 ? EMPTY : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
        resolve({ statusCode, headers, body });
      },
      onError(error) {
        settled();
        reject(error);
      },
    };
    pool.dispatch(
      {
        method: call.method as Dispatcher.HttpMethod,
        path: call.url,
        headers: call.headers,
        body: call.body,
      },
      handler,
    );
  });
}

/**
 * The transport when the hub runs in another process: an undici keep-alive pool. Only the call's deadline
 * (the gateway's timeout) ends a call; undici's own header and body timeouts are off so they cannot
 * answer first with a different code.
 */
export function createHttpHubTransport(config: HttpHubTransportConfig): HubTransport {
  const pool = new Pool(config.url, {
    connections: config.connections,
    keepAliveTimeout: config.keepAliveTimeoutMs ?? 30_000,
    headersTimeout: 0,
    bodyTimeout: 0,
    pipelining: 1,
  });
  return {
    async send(call): Promise<HubAnswer> {
      try {
        return await dispatch(pool, call);
      } catch (error) {
        if (call.deadline?.aborted) {
          throw new HubTransportError("timeout", "the gateway's timeout fired", { cause: error });
        }
        throw new HubTransportError("unreachable", "no answer from the hub over HTTP", { cause: error });
      }
    },
    close: () => pool.close(),
  };
}
