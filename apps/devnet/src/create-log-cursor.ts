import type { AbiEvent, GetLogsReturnType, PublicClient } from "viem";

export interface LogCursorConfig<E extends AbiEvent> {
  client: PublicClient;
  address: `0x${string}`;
  event: E;
  /** First block to read; a restarted service passes the deploy block and rescans. */
  fromBlock: bigint;
  maxRangeBlocks?: bigint;
}

export interface LogCursor<E extends AbiEvent> {
  /** The logs of blocks not read before, up to the chain head, in chain order. */
  next(): Promise<GetLogsReturnType<E, [E], true>>;
}

/** Reads one contract event forward from a block; each block is read once. */
export function createLogCursor<const E extends AbiEvent>(config: LogCursorConfig<E>): LogCursor<E> {
  const maxRange = config.maxRangeBlocks ?? 5_000n;
  let nextBlock = config.fromBlock;

  return {
    async next() {
      const head = await config.client.getBlockNumber({ cacheTime: 0 });
      const found: GetLogsReturnType<E, [E], true> = [];
      while (nextBlock <= head) {
        const toBlock = nextBlock + maxRange - 1n < head ? nextBlock + maxRange - 1n : head;
        const logs = (await config.client.getLogs({
          address: config.address,
          event: config.event,
          fromBlock: nextBlock,
          toBlock,
          strict: true,
        })) as GetLogsReturnType<E, [E], true>;
        found.push(...logs);
        nextBlock = toBlock + 1n;
      }
      return found;
    },
  };
}
