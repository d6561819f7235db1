/**
 * JSON-RPC over HTTP to one EVM chain through several URLs, as real providers behave: 429 with
 * Retry-After, 5xx, resets, timeouts. Modelled on viem's `fallback` transport: the URLs are tried in
 * the configured order, a URL that failed is set aside for a cool-down and the preferred one is
 * taken again once it has passed; retries back off with full jitter and honour Retry-After; at most
 * `maxInFlight` requests are in flight per chain.
 */

import { createInFlightBound } from "./create-in-flight-bound.js";
import { EvmRpcError, type RpcErrorKind } from "./evm-rpc-error.js";
import { pickRpcUrl, type RpcUrlEntry, rpcUrlEntries } from "./pick-rpc-url.js";
import { postRpcCall } from "./post-rpc-call.js";

export { EvmRpcError, type RpcErrorKind } from "./evm-rpc-error.js";
export { isRangeRefusal } from "./is-range-refusal.js";
export { redactRpcUrl } from "./redact-rpc-url.js";

/** One call's outcome, for metrics: `error` is absent when it answered. */
export interface RpcCallEvent {
  host: string;
  method: string;
  ms: number;
  error?: RpcErrorKind;
}

export interface EvmRpcOptions {
  /** In preference order; at least one. */
  urls: readonly string[];
  /** One attempt's bound (default 10 s). */
  timeoutMs?: number;
  /** Requests in flight at once over all URLs (default 8). */
  maxInFlight?: number;
  /** Attempts after the first for a retryable failure, over all URLs (default 5). */
  retries?: number;
  /** First backoff; doubled per attempt, with full jitter (default 200 ms). */
  backoffMs?: number;
  /** Longest wait between attempts, and longest Retry-After honoured (default 10 s). */
  maxBackoffMs?: number;
  /** How long a URL that failed is set aside before it is preferred again (default 30 s). */
  cooldownMs?: number;
  /** Every attempt's outcome. */
  observe?: (event: RpcCallEvent) => void;
  fetch?: typeof fetch;
  random?: () => number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export interface EvmRpc {
  request<T = unknown>(method: string, params?: readonly unknown[]): Promise<T>;
  /** The hosts of the URLs, in preference order (safe to log). */
  readonly hosts: readonly string[];
  /** The host of the URL the next call goes to. */
  currentHost(): string;
  /** Requests in flight now. */
  inFlight(): number;
}

export function createEvmRpc(options: EvmRpcOptions): EvmRpc {
  if (options.urls.length === 0) throw new Error("an EVM chain needs at least one RPC URL");
  const urls = rpcUrlEntries(options.urls);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const bound = createInFlightBound(Math.max(1, options.maxInFlight ?? 8));
  const retries = options.retries ?? 5;
  const backoffMs = options.backoffMs ?? 200;
  const maxBackoffMs = options.maxBackoffMs ?? 10_000;
  const cooldownMs = options.cooldownMs ?? 30_000;
  const doFetch = options.fetch ?? fetch;
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  const sleep =
    options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref?.()));
  let nextId = 1;
  const pick = () => pickRpcUrl(urls, now());

  /** A retryable failure sets the URL aside: for the cool-down when there is another, and until its Retry-After. */
  function setAside(entry: RpcUrlEntry, error: EvmRpcError): void {
    const failedAt = now();
    entry.failures += 1;
    entry.downUntil = failedAt + (urls.length > 1 ? cooldownMs : 0);
    entry.retryAt = failedAt + Math.min(maxBackoffMs, error.retryAfterMs ?? 0);
  }

  async function request<T>(method: string, params: readonly unknown[] = []): Promise<T> {
    let lastError: EvmRpcError | undefined;
    for (let attemptNo = 0; attemptNo <= retries; attemptNo++) {
      const entry = pick();
      const at = now();
      if (attemptNo > 0 && (entry.downUntil > at || entry.retryAt > at)) {
        // Every URL is set aside: back off with full jitter, and at least until its Retry-After.
        const backoff = Math.min(maxBackoffMs, backoffMs * 2 ** (attemptNo - 1));
        await sleep(Math.min(maxBackoffMs, Math.max(entry.retryAt - at, backoff * random())));
      }
      await bound.acquire();
      const started = now();
      try {
        const call = {
          url: entry.url,
          host: entry.host,
          id: nextId++,
          method,
          params,
          timeoutMs,
          fetch: doFetch,
          now,
        };
        const result = await postRpcCall(call);
        entry.failures = 0;
        options.observe?.({ host: entry.host, method, ms: now() - started });
        return result as T;
      } catch (error) {
        const rpcError =
          error instanceof EvmRpcError
            ? error
            : new EvmRpcError(String(error), { kind: "transport", host: entry.host });
        options.observe?.({ host: entry.host, method, ms: now() - started, error: rpcError.kind });
        if (!rpcError.retryable) throw rpcError;
        lastError = rpcError;
        setAside(entry, rpcError);
      } finally {
        bound.release();
      }
    }
    throw lastError ?? new Error(`${method}: no attempt made`);
  }

  return {
    hosts: urls.map((entry) => entry.host),
    currentHost: () => pick().host,
    inFlight: bound.active,
    request,
  };
}
