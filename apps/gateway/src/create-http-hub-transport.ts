import type { HubAnswer, HubTransport } from "@hub/contract";
import { type Dispatcher, Pool } from "undici";
import { HubTransportError } from "./hub-transport-error.js";

/** Where the hub listens and how many keep-alive connections the gateway keeps to it. */
export interface HttpHubTransportConfig {
  readonly url: string;
  readonly connections: number;
  readonly keepAliveTimeoutMs?: number;
}

function flatten(headers: Dispatcher.ResponseData["headers"]): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    flat[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return flat;
}

/**
 * The transport when the hub runs in another process: an undici keep-alive pool. Only the call's signal
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
        const response = await pool.request({
          method: call.method as Dispatcher.HttpMethod,
          path: call.url,
          headers: call.headers,
          body: call.body,
          signal: call.signal,
        });
        const body = Buffer.from(await response.body.arrayBuffer());
        return { statusCode: response.statusCode, headers: flatten(response.headers), body };
      } catch (error) {
        if (call.signal?.aborted) {
          throw new HubTransportError("timeout", "the gateway's timeout fired", { cause: error });
        }
        throw new HubTransportError("unreachable", "no answer from the hub over HTTP", { cause: error });
      }
    },
    close: () => pool.close(),
  };
}
