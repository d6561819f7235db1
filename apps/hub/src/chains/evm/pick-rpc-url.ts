import { redactRpcUrl } from "./redact-rpc-url.js";

/** One of a chain's RPC URLs, with when it may be called and preferred again. */
export interface RpcUrlEntry {
  url: string;
  /** Safe to log: the host, never the path or a key. */
  host: string;
  /** Preferred again after it (the cool-down). */
  downUntil: number;
  /** Not called before it (Retry-After). */
  retryAt: number;
  /** Failures in a row. */
  failures: number;
}

/**
 * The first URL not set aside; when all are, the one that failed the fewest times in a row, then
 * the one free to be called first (a cool-down orders the URLs, it does not stop a chain's only
 * answers: a URL that answers 429 now and then still beats one that is down).
 */
export function pickRpcUrl(urls: readonly RpcUrlEntry[], at: number): RpcUrlEntry {
  const healthy = urls.find((entry) => entry.downUntil <= at && entry.retryAt <= at);
  if (healthy) return healthy;
  return urls.reduce((best, entry) => {
    if (entry.failures !== best.failures) return entry.failures < best.failures ? entry : best;
    return Math.max(entry.retryAt, at) < Math.max(best.retryAt, at) ? entry : best;
  });
}

/** The chain's URLs in preference order, none set aside yet. */
export function rpcUrlEntries(urls: readonly string[]): RpcUrlEntry[] {
  return urls.map((url) => ({ url, host: redactRpcUrl(url), downUntil: 0, retryAt: 0, failures: 0 }));
}
