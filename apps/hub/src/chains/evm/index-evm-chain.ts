import { redactRpcUrl } from "./redact-rpc-url.js";
import type { ChainIndexContext } from "../chain-indexer.js";
import type { ChainProgress } from "../chain-progress.js";
import type { BlockHeader } from "./chain-reader.js";
import type { EvmChainIndexing } from "./evm-chain-indexing.js";
import { finalHeader } from "./evm-finality.js";
import { type ReadRange, readCheckedRange } from "./read-checked-range.js";
import { rollBackEvmChain } from "./roll-back-evm-chain.js";

/** Blocks read whole (hash, parent, bloom) below the head even when final, for the range check. */
const CHECKED_NEAR_HEAD = 64;

/** Where one pass over an EVM chain stands: the next block to commit and the block it must follow. */
interface EvmPass {
  progress: ChainProgress;
  safeHead: number;
  final: BlockHeader | undefined;
  /** Every block from here (near the head or not final yet) is read whole and kept. */
  checkedFrom: number;
  expected: number | null;
  expectedHash: string | undefined;
  from: number;
}

async function checkChainId(indexing: EvmChainIndexing): Promise<void> {
  if (indexing.chainIdVerified) return;
  const { chain } = indexing;
  const actual = await indexing.reader.chainId();
  if (actual !== chain.chainId) {
    throw new Error(
      `${redactRpcUrl(chain.rpcUrl)} answers chain id ${actual}, configured ${chain.chainId} for ${chain.chainDomain}`,
    );
  }
  indexing.chainIdVerified = true;
}

/** The head, the watermark (rolled back first if the chain reorganised below it) and the final block. */
async function startEvmPass(indexing: EvmChainIndexing, context: ChainIndexContext): Promise<EvmPass> {
  const { chain, reader } = indexing;
  const { store, state } = context;
  const progress: ChainProgress = { chainDomain: chain.chainDomain, ranges: 0, factsWritten: 0 };
  await checkChainId(indexing);
  // The head first: the lag gauges move even while the checks below keep failing.
  const head = await reader.headBlockNumber();
  const safeHead = head - indexing.options.confirmations;
  if (state) {
    state.headBlock = head;
    state.headAtMs = context.clock.now();
    state.safeHead = safeHead;
  }
  let watermark = await store.getWatermark(chain.chainDomain);
  if (state && watermark) state.indexedBlock = watermark.lastBlock;
  if (watermark && !watermark.reindexRequested) {
    const current = await reader.header(watermark.lastBlock);
    if (current?.hash !== watermark.lastBlockHash) {
      progress.reorg = await rollBackEvmChain(indexing, context, watermark);
      watermark = await store.getWatermark(chain.chainDomain);
    }
  }
  if (state) state.reorgBeyondKeptBlocks = undefined;
  // Read after the head: the final block is never above the head the ranges are bounded by.
  const final = await finalHeader(reader, chain.finality ?? { depth: 0 }, head);
  if (state) {
    if (watermark) state.indexedBlock = watermark.lastBlock;
    if (final) state.finalBlock = final.number;
  }
  return {
    progress,
    safeHead,
    final,
    // The reorganisation check walks the kept blocks, and the bloom tells a range answer that missed a block.
    checkedFrom: Math.min((final?.number ?? -1) + 1, safeHead - (CHECKED_NEAR_HEAD - 1)),
    expected: watermark ? watermark.lastBlock : null,
    expectedHash: watermark && !watermark.reindexRequested ? watermark.lastBlockHash : undefined,
    from: watermark ? watermark.lastBlock + 1 : chain.startBlock,
  };
}

/** Writes one read range under the lease, moving the watermark over it. */
async function commitRange(
  { chain, options }: EvmChainIndexing,
  context: ChainIndexContext,
  pass: EvmPass,
  { to, logs, blocks }: ReadRange,
): Promise<void> {
  const { final, from } = pass;
  const toBlock = blocks.get(to) as BlockHeader;
  const finalBlock =
    final === undefined ? undefined : final.number <= to ? (blocks.get(final.number) ?? final) : toBlock;
  const written = await context.store.writeIndexedRange({
    chainDomain: chain.chainDomain,
    chainId: chain.chainId,
    expectedLastBlock: pass.expected,
    toBlock,
    logs,
    blockTimestamps: new Map([...blocks.values()].map((block) => [block.number, block.timestamp])),
    observedAt: new Date(context.clock.now()),
    lease: context.lease,
    keptBlocks: [...blocks.values()].map(({ number, hash, parentHash, timestamp }) => ({
      number,
      hash,
      parentHash,
      timestamp,
    })),
    ...(finalBlock ? { finalBlock } : {}),
    keepBlocks: options.keepBlocks,
  });
  pass.progress.fromBlock ??= from;
  pass.progress.toBlock = to;
  pass.progress.ranges += 1;
  pass.progress.factsWritten += written;
  pass.expected = to;
  pass.expectedHash = toBlock.hash;
  pass.from = to + 1;
  if (context.state) context.state.indexedBlock = to;
}

/**
 * Ranges are read ahead, several at once (the transport bounds the calls in flight per chain), and
 * committed one by one in block order: the watermark only ever moves over contiguous ranges.
 */
async function commitRanges(
  indexing: EvmChainIndexing,
  context: ChainIndexContext,
  pass: EvmPass,
): Promise<void> {
  const { chain, reader, options } = indexing;
  const ahead: Promise<ReadRange>[] = [];
  let nextFrom = pass.from;
  while (pass.from <= pass.safeHead && !context.stopping()) {
    if (!(await context.holdLease())) break;
    while (ahead.length < options.rangesInFlight && nextFrom <= pass.safeHead) {
      const to = Math.min(nextFrom + options.maxBlockRange - 1, pass.safeHead);
      const read = readCheckedRange(chain, reader, pass.checkedFrom, nextFrom, to);
      // A read behind a failed one is dropped with the pass, never an unhandled rejection.
      read.catch(() => undefined);
      ahead.push(read);
      nextFrom = to + 1;
    }
    const range = await (ahead.shift() as Promise<ReadRange>);
    const first = range.blocks.get(pass.from) as BlockHeader;
    if (pass.expectedHash !== undefined && first.parentHash !== pass.expectedHash) {
      throw new Error(
        `block ${pass.from} of ${chain.chainDomain} does not follow the indexed block ${pass.from - 1}: reorganised while read`,
      );
    }
    if (context.stopping() || !(await context.holdLease())) break;
    await commitRange(indexing, context, pass, range);
  }
}

/** One pass over an EVM chain: from its watermark (after any rollback) up to its safe head. */
export async function indexEvmChain(
  indexing: EvmChainIndexing,
  context: ChainIndexContext,
): Promise<ChainProgress> {
  const pass = await startEvmPass(indexing, context);
  await commitRanges(indexing, context, pass);
  const { final, expected } = pass;
  // Caught up: the final block still moves as the chain grows past it.
  if (final && expected !== null && final.number <= expected && (await context.holdLease())) {
    await context.store.markFinal(indexing.chain.chainDomain, final, context.lease);
  }
  if (context.state && pass.from > pass.safeHead) context.state.caughtUpAtMs = context.clock.now();
  return pass.progress;
}
