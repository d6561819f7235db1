import { formatLog, type Log, type RpcLog, toHex } from "viem";
import { type EvmRpc, EvmRpcError } from "./evm-rpc-transport.js";
import { orderEventTopics } from "./read-order-logs.js";

/** Where the reader stands on one chain's eth_getLogs ranges (the working size it learnt). */
export interface LogRangeState {
  /** The widest range the provider last answered, or the bound it named; the next ranges use it. */
  span: number;
}

export interface LogRangeReader {
  /** The settler and bridge logs of the addresses in from..to, split into ranges the provider accepts. */
  getLogs(addresses: readonly string[], from: number, to: number): Promise<Log[]>;
  /** The eth_getLogs range size now in use. */
  span(): number;
}

const HINT = /\[\s*(0x[0-9a-f]+)\s*,\s*(0x[0-9a-f]+)\s*\]/i;

/** Alchemy names a range that works ("this block range should work: [0x.., 0x..]"): its size. */
function hintedSpan(error: EvmRpcError): number | undefined {
  const texts = [
    error.message,
    typeof error.data === "string" ? error.data : JSON.stringify(error.data ?? ""),
  ];
  for (const text of texts) {
    const match = HINT.exec(text);
    if (match?.[1] && match[2]) {
      const span = Number.parseInt(match[2], 16) - Number.parseInt(match[1], 16) + 1;
      if (span > 0) return span;
    }
  }
  return undefined;
}

/**
 * eth_getLogs in the widest range the provider accepts: learnt from its refusals (the bound it names,
 * else half of what it refused), grown back while it answers, the pieces of a wider range fetched
 * concurrently.
 */
export function createLogRangeReader(
  rpc: EvmRpc,
  config: {
    maxLogRange: number;
    growAfter: number;
    onRangeChange?: ((span: number, reason: "refused" | "grown") => void) | undefined;
  },
): LogRangeReader {
  const { maxLogRange, growAfter } = config;
  const range: LogRangeState = { span: maxLogRange };
  let answeredAtSpan = 0;

  function setSpan(span: number, reason: "refused" | "grown"): void {
    const next = Math.max(1, Math.min(maxLogRange, Math.floor(span)));
    if (next === range.span) return;
    range.span = next;
    answeredAtSpan = 0;
    config.onRangeChange?.(next, reason);
  }

  async function getLogs(addresses: readonly string[], from: number, to: number): Promise<Log[]> {
    if (to - from + 1 > range.span) {
      const pieces: Promise<Log[]>[] = [];
      for (let start = from; start <= to; start += range.span) {
        pieces.push(getLogs(addresses, start, Math.min(to, start + range.span - 1)));
      }
      return (await Promise.all(pieces)).flat();
    }
    const size = to - from + 1;
    try {
      const raw = await rpc.request<RpcLog[]>("eth_getLogs", [
        { address: addresses, topics: [orderEventTopics], fromBlock: toHex(from), toBlock: toHex(to) },
      ]);
      if (!Array.isArray(raw)) throw new Error(`eth_getLogs ${from}..${to} answered no list`);
      if (size >= range.span && range.span < maxLogRange && ++answeredAtSpan >= growAfter) {
        setSpan(range.span * 2, "grown");
      }
      return raw.map((log) => formatLog(log));
    } catch (error) {
      if (!(error instanceof EvmRpcError) || error.kind !== "range") throw error;
      if (size <= 1) throw error;
      const hint = hintedSpan(error);
      // The provider's own bound when it names one below this size, else half of what it refused.
      setSpan(
        Math.min(range.span, hint !== undefined && hint < size ? hint : Math.ceil(size / 2)),
        "refused",
      );
      return getLogs(addresses, from, to);
    }
  }

  return { getLogs, span: () => range.span };
}
