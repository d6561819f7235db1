import type { BlockHeader, ChainReader, OrderLog, OrderLogQuery } from "./chain-reader.js";
import { bloomMayContain } from "./evm-finality.js";
import type { ReconcilerChainConfig } from "./reconciler-chain-config.js";

/** Headers fetched at once. */
const HEADER_BATCH = 8;

/** One range read and checked, waiting for its turn to be committed. */
export interface ReadRange {
  from: number;
  to: number;
  logs: OrderLog[];
  blocks: Map<number, BlockHeader>;
}

/** The settlers and bridges whose logs the chain's ranges read. */
function logQueryOf(chain: ReconcilerChainConfig): Omit<OrderLogQuery, "fromBlock" | "toBlock"> {
  return {
    inputSettlers: chain.inputSettlers,
    outputSettler: chain.outputSettler,
    ...(chain.bridges?.length ? { bridges: chain.bridges } : {}),
  };
}

/** Fetches headers, a few at a time; a block the node does not have yet fails the range. */
async function headers(reader: ChainReader, numbers: readonly number[]): Promise<Map<number, BlockHeader>> {
  const found = new Map<number, BlockHeader>();
  for (let i = 0; i < numbers.length; i += HEADER_BATCH) {
    const batch = numbers.slice(i, i + HEADER_BATCH);
    for (const [index, header] of (await Promise.all(batch.map((n) => reader.header(n)))).entries()) {
      if (!header) throw new Error(`block ${batch[index]} is not on the node yet`);
      found.set(header.number, header);
    }
  }
  return found;
}

/** Its blocks follow each other and its logs sit in them, or the range changed while it was read. */
function checkLinks(chainDomain: string, { from, to, logs, blocks }: ReadRange): void {
  for (let n = from + 1; n <= to; n += 1) {
    const block = blocks.get(n);
    const parent = blocks.get(n - 1);
    if (block && parent && block.parentHash !== parent.hash) {
      throw new Error(`block ${n} of ${chainDomain} changed while its range was read`);
    }
  }
  for (const log of logs) {
    if (blocks.get(log.blockNumber)?.hash !== log.blockHash) {
      throw new Error(`block ${log.blockNumber} of ${chainDomain} changed while its range was read`);
    }
  }
}

/**
 * A block whose bloom names our contracts but that the range answer has no log of: read it again by
 * hash. A node that has not seen the block fails (the range is retried later); a false positive
 * answers nothing.
 */
async function checkBlooms(
  chain: ReconcilerChainConfig,
  reader: ChainReader,
  range: ReadRange,
): Promise<void> {
  const addresses = [...chain.inputSettlers, chain.outputSettler, ...(chain.bridges ?? [])];
  const withLogs = new Set(range.logs.map((log) => log.blockNumber));
  for (const block of range.blocks.values()) {
    if (withLogs.has(block.number) || !bloomMayContain(block.logsBloom, addresses)) continue;
    const missed = await reader.orderLogsAtBlock(block.hash, logQueryOf(chain));
    if (missed.length > 0) {
      throw new Error(
        `the log source has not seen block ${block.number} of ${chain.chainDomain} (its bloom names our contracts): retried later`,
      );
    }
  }
}

/**
 * Reads one range and checks it on its own. Every block from checkedFrom (near the head or not final
 * yet) is read whole (hash, parent, bloom) to be kept for the reorganisation check.
 */
export async function readCheckedRange(
  chain: ReconcilerChainConfig,
  reader: ChainReader,
  checkedFrom: number,
  from: number,
  to: number,
): Promise<ReadRange> {
  const logs = await reader.orderLogs({ fromBlock: from, toBlock: to, ...logQueryOf(chain) });
  const numbers = new Set([...logs.map((log) => log.blockNumber), from, to]);
  for (let n = Math.max(from, checkedFrom); n <= to; n += 1) numbers.add(n);
  const blocks = await headers(
    reader,
    [...numbers].sort((a, b) => a - b),
  );
  const range = { from, to, logs, blocks };
  checkLinks(chain.chainDomain, range);
  await checkBlooms(chain, reader, range);
  return range;
}
