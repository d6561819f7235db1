import type { Clock } from "@hub/clock";

/** Where the hub reads one Solana chain. */
export interface SolanaChainRpc {
  chainDomain: string;
  rpcUrl: string;
}

/** What a chain said of a blockhash; `unavailable` when it could not be asked (no RPC, error, timeout). */
export type BlockhashValidity =
  | { kind: "valid" }
  | { kind: "invalid" }
  | { kind: "unavailable"; cause: string };

/** Asks a Solana chain whether a message's recent blockhash is still valid. */
export interface SolanaBlockhashChecker {
  check(chainDomain: string, blockhash: string): Promise<BlockhashValidity>;
}

export interface SolanaBlockhashCheckerOptions {
  chains: readonly SolanaChainRpc[];
  clock: Clock;
  /** Per call; 2 s by default. */
  timeoutMs?: number;
  /** How long an answer is reused for the same blockhash; 2 s by default (a blockhash lives about a minute). */
  cacheMs?: number;
}

const CACHE_SWEEP_SIZE = 256;

/**
 * `isBlockhashValid` over the chain's JSON-RPC, one call per distinct blockhash within cacheMs (answers
 * that arrive together share the call in flight). A failed call is not kept: the next answer asks again.
 */
export function createSolanaBlockhashChecker(options: SolanaBlockhashCheckerOptions): SolanaBlockhashChecker {
  const { clock } = options;
  const timeoutMs = options.timeoutMs ?? 2000;
  const cacheMs = options.cacheMs ?? 2000;
  const rpcUrls = new Map(options.chains.map((chain) => [chain.chainDomain, chain.rpcUrl]));
  const cache = new Map<string, { atMs: number; answer: Promise<BlockhashValidity> }>();

  async function ask(rpcUrl: string, blockhash: string): Promise<BlockhashValidity> {
    try {
      const response = await fetch(rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "isBlockhashValid",
          params: [blockhash, { commitment: "processed" }],
        }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!response.ok) return { kind: "unavailable", cause: `RPC answered ${response.status}` };
      const body = (await response.json()) as { result?: { value?: unknown }; error?: { message?: unknown } };
      const value = body.result?.value;
      if (typeof value !== "boolean") {
        return { kind: "unavailable", cause: `RPC error: ${String(body.error?.message ?? "no result")}` };
      }
      return value ? { kind: "valid" } : { kind: "invalid" };
    } catch (error) {
      return { kind: "unavailable", cause: (error as Error).message };
    }
  }

  return {
    check(chainDomain, blockhash) {
      const rpcUrl = rpcUrls.get(chainDomain);
      if (rpcUrl === undefined) {
        return Promise.resolve({ kind: "unavailable", cause: `no RPC URL for ${chainDomain}` });
      }
      const nowMs = clock.now();
      const key = `${chainDomain} ${blockhash}`;
      const cached = cache.get(key);
      if (cached && nowMs - cached.atMs < cacheMs) return cached.answer;
      if (cache.size >= CACHE_SWEEP_SIZE) {
        for (const [k, entry] of cache) if (nowMs - entry.atMs >= cacheMs) cache.delete(k);
      }
      const answer = ask(rpcUrl, blockhash).then((validity) => {
        if (validity.kind === "unavailable" && cache.get(key)?.answer === answer) cache.delete(key);
        return validity;
      });
      cache.set(key, { atMs: nowMs, answer });
      return answer;
    },
  };
}
