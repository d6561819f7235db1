import type { ChainWatermark, KeptBlock } from "../../store/chain-facts-store.js";
import type { ChainIndexContext } from "../chain-indexer.js";
import type { ChainProgress } from "../chain-progress.js";
import type { ChainReader } from "./chain-reader.js";
import type { EvmChainIndexing } from "./evm-chain-indexing.js";
import { ReorgBeyondKeptBlocksError } from "./reorg-beyond-kept-blocks-error.js";

/** The newest kept block the chain still has (a block's hash commits to every block below it); `kept` is oldest first. */
async function findForkBlock(
  reader: ChainReader,
  kept: readonly KeptBlock[],
): Promise<KeptBlock | undefined> {
  let low = 0;
  let high = kept.length - 1;
  let fork: KeptBlock | undefined;
  while (low <= high) {
    const middle = Math.floor((low + high) / 2);
    const block = kept[middle] as KeptBlock;
    const current = await reader.header(block.number);
    if (current?.hash === block.hash) {
      fork = block;
      low = middle + 1;
    } else high = middle - 1;
  }
  return fork;
}

/**
 * The watermark's block is no longer on the chain: find the newest kept block the chain still has
 * (a binary search) and roll back to it.
 */
export async function rollBackEvmChain(
  { chain, reader, options }: EvmChainIndexing,
  { store, lease, logger, state }: ChainIndexContext,
  watermark: ChainWatermark,
): Promise<NonNullable<ChainProgress["reorg"]>> {
  const kept = (await store.listKeptBlocks(chain.chainDomain))
    .filter((block) => block.number <= watermark.lastBlock)
    .reverse();
  const fork = await findForkBlock(reader, kept);
  if (!fork) {
    if (state && !state.reorgBeyondKeptBlocks) {
      logger.error(
        {
          chainDomain: chain.chainDomain,
          watermark: watermark.lastBlock,
          oldestKeptBlock: kept[0]?.number,
        },
        "chain reorganised below every kept block: indexing stopped until `hub admin reindex`",
      );
    }
    if (state) {
      state.reorgBeyondKeptBlocks = {
        watermark: watermark.lastBlock,
        ...(kept[0] ? { oldestKeptBlock: kept[0].number } : {}),
      };
    }
    throw new ReorgBeyondKeptBlocksError(chain.chainDomain, watermark.lastBlock);
  }
  const depth = watermark.lastBlock - fork.number;
  const finalityViolated = watermark.finalBlock !== undefined && fork.number < watermark.finalBlock;
  const removed = await store.rollBackChain({
    chainDomain: chain.chainDomain,
    expectedLastBlock: watermark.lastBlock,
    fork,
    lease,
    ...(options.beforeRollbackCommit
      ? { beforeCommit: () => options.beforeRollbackCommit?.(chain.chainDomain) ?? Promise.resolve() }
      : {}),
  });
  if (state) {
    state.reorgsByDepth[String(depth)] = (state.reorgsByDepth[String(depth)] ?? 0) + 1;
    if (finalityViolated) state.finalityViolations += 1;
    state.indexedBlock = fork.number;
  }
  const line = {
    chainDomain: chain.chainDomain,
    depth,
    forkBlock: fork.number,
    replacedUpTo: watermark.lastBlock,
    finalBlock: watermark.finalBlock,
    ...removed,
  };
  if (finalityViolated) logger.error(line, "chain reorganised below its final block: rolled back");
  else logger.warn(line, "chain reorganised: rolled back");
  return { forkBlock: fork.number, depth, finalityViolated, factsRemoved: removed.factsRemoved };
}
