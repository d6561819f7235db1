import { AdminRefusal } from "./admin-refusal.js";

/** What the reindex verb needs of the hub's chain facts (the hub's ChainFactsStore.requestReindex). */
export interface ChainReindexer {
  requestReindex(
    chainDomain: string,
    fromBlock: number,
  ): Promise<{ factsRemoved: number; claimsReleased: number } | undefined>;
}

/** The operator's verb on the chains the reconciler indexes. */
export interface ChainAdmin {
  /**
   * Re-indexes an EVM chain from a block, after a reorganisation deeper than the blocks the reconciler
   * keeps: every fact at or above fromBlock is deleted and the watermark moved below it, in one
   * transaction; the reconciler (the running stack's lease holder) reads the chain again from there.
   */
  reindexChain(input: { chainDomain: string; fromBlock: number }): Promise<{
    chainDomain: string;
    fromBlock: number;
    factsRemoved: number;
    claimsReleased: number;
  }>;
}

export function createChainAdmin(deps: { chains: ChainReindexer }): ChainAdmin {
  return {
    async reindexChain({ chainDomain, fromBlock }) {
      if (!/^eip155:[0-9]{1,20}$/.test(chainDomain))
        throw new AdminRefusal(
          "invalid-argument",
          `--chain ${chainDomain} is not an EVM chain domain (eip155:<id>)`,
        );
      if (!Number.isSafeInteger(fromBlock) || fromBlock < 1)
        throw new AdminRefusal("invalid-argument", "--from must be a block number of 1 or more");
      const removed = await deps.chains.requestReindex(chainDomain, fromBlock);
      if (!removed) {
        throw new AdminRefusal(
          "chain-not-indexed",
          `${chainDomain} has no watermark at or above block ${fromBlock - 1}: nothing to re-index`,
        );
      }
      return { chainDomain, fromBlock, ...removed };
    },
  };
}
