import { formatLog, type RpcLog, toHex } from "viem";
import type { BlockHeader, ChainReader, OrderLogQuery } from "./chain-reader.js";
import { createLogRangeReader } from "./create-log-range-reader.js";
import { createEvmRpc, type EvmRpc, type EvmRpcOptions, type RpcCallEvent } from "./evm-rpc-transport.js";
import { orderEventTopics, readOrderLogs } from "./read-order-logs.js";

export type { LogRangeState } from "./create-log-range-reader.js";

export interface EvmChainReaderConfig {
  /** The chain's RPC URLs in preference order (or one URL). */
  rpcUrls?: readonly string[];
  /** One URL: kept for callers that have a single one. */
  rpcUrl?: string;
  requestTimeoutMs?: number;
  /** Requests in flight at once to this chain (default 8). */
  maxInFlight?: number;
  /** The widest eth_getLogs range asked for, and where a shrunk range grows back to (default 2,000). */
  maxLogRange?: number;
  /** Ranges answered at the working size before it doubles (default 4). */
  growAfter?: number;
  /** Every RPC attempt, for metrics. */
  observe?: (event: RpcCallEvent) => void;
  /** The working range size changed (shrunk on a refusal or grown back). */
  onRangeChange?: (span: number, reason: "refused" | "grown") => void;
  /** Test seams for the transport. */
  transport?: Partial<Omit<EvmRpcOptions, "urls" | "observe">>;
}

export interface EvmChainReader extends ChainReader {
  readonly rpc: EvmRpc;
  /** The eth_getLogs range size now in use. */
  logRange(): number;
}

interface RawBlock {
  number: string | null;
  hash: string | null;
  parentHash: string;
  timestamp: string;
  logsBloom: string | null;
}

/**
 * A ChainReader over EVM JSON-RPC through createEvmRpc (failover, retries, a bound in flight): one
 * eth_getLogs per range for the settler and bridge events, split into the widest range the provider
 * accepts (learnt from its refusals, grown back while it answers), the pieces fetched concurrently.
 */
export function createEvmChainReader(config: EvmChainReaderConfig): EvmChainReader {
  const urls = config.rpcUrls?.length ? config.rpcUrls : config.rpcUrl ? [config.rpcUrl] : [];
  const rpc = createEvmRpc({
    ...config.transport,
    urls,
    timeoutMs: config.requestTimeoutMs ?? config.transport?.timeoutMs ?? 10_000,
    ...(config.maxInFlight === undefined ? {} : { maxInFlight: config.maxInFlight }),
    ...(config.observe ? { observe: config.observe } : {}),
  });
  const logRange = createLogRangeReader(rpc, {
    maxLogRange: Math.max(1, config.maxLogRange ?? 2000),
    growAfter: Math.max(1, config.growAfter ?? 4),
    onRangeChange: config.onRangeChange,
  });

  return {
    rpc,
    logRange: logRange.span,
    async chainId() {
      return Number(await rpc.request<string>("eth_chainId"));
    },
    async headBlockNumber() {
      return Number(await rpc.request<string>("eth_blockNumber"));
    },
    async block(number) {
      const block = await rpc.request<RawBlock | null>("eth_getBlockByNumber", [toHex(number), false]);
      if (!block) throw new Error(`block ${number} is not known to the RPC yet`);
      if (block.hash === null) throw new Error(`block ${number} is pending`);
      return { number, hash: block.hash.toLowerCase(), timestamp: Number(block.timestamp) };
    },
    async header(number) {
      return headerOf(
        await rpc.request<RawBlock | null>("eth_getBlockByNumber", [toHex(number), false]),
        String(number),
      );
    },
    async taggedHeader(tag) {
      return headerOf(await rpc.request<RawBlock | null>("eth_getBlockByNumber", [tag, false]), tag);
    },
    orderLogsAtBlock: (blockHash, query) =>
      readOrderLogs(
        query,
        async (addresses) => {
          const raw = await rpc.request<RpcLog[]>("eth_getLogs", [
            { address: addresses, topics: [orderEventTopics], blockHash },
          ]);
          if (!Array.isArray(raw)) throw new Error(`eth_getLogs at ${blockHash} answered no list`);
          return raw.map((log) => formatLog(log));
        },
        blockHash,
      ),
    orderLogs: (query: OrderLogQuery) =>
      readOrderLogs(
        query,
        (addresses) => logRange.getLogs(addresses, query.fromBlock, query.toBlock),
        `${query.fromBlock}..${query.toBlock}`,
      ),
  };
}

/** A block's header; undefined when the node knows no such block (yet). */
function headerOf(block: RawBlock | null, label: string): BlockHeader | undefined {
  if (!block) return undefined;
  if (block.number === null || block.hash === null || block.logsBloom === null)
    throw new Error(`block ${label} is pending: a pending block has no header`);
  return {
    number: Number(block.number),
    hash: block.hash.toLowerCase(),
    parentHash: block.parentHash.toLowerCase(),
    timestamp: Number(block.timestamp),
    logsBloom: block.logsBloom.toLowerCase(),
  };
}
