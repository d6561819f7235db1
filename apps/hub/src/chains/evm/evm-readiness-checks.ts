import { HoldBackError, type ReadinessCheck } from "../../metrics/readiness.js";
import type { ChainFactsStore } from "../../store/chain-facts-store.js";
import { type ChainStaleness, staleChainDetail } from "../chain-staleness.js";
import { redactRpcUrl } from "./redact-rpc-url.js";

/** An EVM chain the reconciler indexes. */
export interface ProbedChain {
  chainDomain: string;
  rpcUrl: string;
  /** Every URL in preference order; the chain answers when any of them does. */
  rpcUrls?: readonly string[];
  startBlock: number;
}

/** eth_blockNumber over JSON-RPC. */
export async function chainHead(rpcUrl: string, signal: AbortSignal): Promise<number> {
  const response = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }),
    signal,
  });
  if (!response.ok) throw new Error(`the RPC answered HTTP ${response.status}`);
  const body = (await response.json()) as { result?: unknown; error?: { message?: string } };
  if (typeof body.result !== "string")
    throw new Error(`the RPC answered no block number: ${body.error?.message ?? "no result"}`);
  return Number.parseInt(body.result, 16);
}

/** The first of the URLs that answers a block number, in order; throws the first URL's error when none does. */
async function anyChainHead(urls: readonly string[], signal: AbortSignal): Promise<number> {
  const failures: string[] = [];
  for (const url of urls) {
    try {
      return await chainHead(url, signal);
    } catch (error) {
      const cause = (error as Error & { cause?: { code?: string; message?: string } }).cause;
      const why = cause?.code ?? cause?.message ?? (error as Error).message;
      failures.push(`${redactRpcUrl(url)}: ${why}`);
      if (signal.aborted) break;
    }
  }
  throw new Error(`no RPC URL of the chain answers (${failures.join("; ")})`);
}

function urlsOf(chain: ProbedChain): readonly string[] {
  return chain.rpcUrls?.length ? chain.rpcUrls : [chain.rpcUrl];
}

/** One of the chain's RPC URLs answers a block number. Advisory: a chain down degrades, never drains. */
export function chainRpcCheck(chain: ProbedChain): ReadinessCheck {
  return {
    name: `chain:${chain.chainDomain}`,
    advisory: true,
    run: async (signal) => void (await anyChainHead(urlsOf(chain), signal)),
  };
}

/**
 * The reconciler's watermark (in the database, so every replica sees the leader's) is at most
 * maxLagBlocks behind the chain's head.
 */
export function reconcilerLagCheck(
  chain: ProbedChain,
  watermarks: Pick<ChainFactsStore, "getWatermark">,
  maxLagBlocks: number,
  staleness?: ChainStaleness,
  /** This replica's reconciler state of the chain (the lease holder's says when a reorganisation is too deep). */
  state?: () => { reorgBeyondKeptBlocks?: { watermark: number } } | undefined,
): ReadinessCheck {
  return {
    name: `reconciler:${chain.chainDomain}`,
    advisory: true,
    run: async (signal) => {
      // Not advisory: the chain's indexing has stopped until an operator re-indexes it.
      const beyond = state?.()?.reorgBeyondKeptBlocks;
      if (beyond) {
        throw new HoldBackError(
          `the chain reorganised below every kept block (watermark ${beyond.watermark}): run hub admin reindex --chain ${chain.chainDomain} --from <block>`,
        );
      }
      const stale = staleChainDetail(staleness, chain.chainDomain);
      if (stale) return stale;
      const [head, watermark] = await Promise.all([
        anyChainHead(urlsOf(chain), signal),
        watermarks.getWatermark(chain.chainDomain),
      ]);
      const indexed = watermark?.lastBlock ?? chain.startBlock - 1;
      const lag = head - indexed;
      return lag > maxLagBlocks
        ? `the reconciler is ${lag} blocks behind the head ${head} (bound ${maxLagBlocks})`
        : undefined;
    },
  };
}
