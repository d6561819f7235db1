import type { Cancellation, RouteMatch } from "@hub/contract";

/** One call as a transport hands it over: over HTTP (Fastify) or in process (the gateway's handle). */
export interface InboundCall {
  method: string;
  /** Path and query as sent, starting with /v1. */
  url: string;
  /** Lowercase header names. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The body as read; undefined when none was sent. */
  body: Buffer | undefined;
  /** Address of the connection's peer, or `in-process`. */
  peerAddress: string;
  /** When the caller gives up (the gateway's timeout, a client gone); its signal is made only if the work reads it. */
  cancellation: Cancellation | undefined;
  /** The route the gateway already matched `url` to (in process only); otherwise the dispatcher matches it. */
  route: RouteMatch | undefined;
}

/** A header of the call, when it was sent once. */
export function header(call: InboundCall, name: string): string | undefined {
  const value = call.headers[name];
  return typeof value === "string" ? value : undefined;
}
