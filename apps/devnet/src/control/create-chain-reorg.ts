import type { ChainClients } from "../create-chain-clients.js";

/** What a reorganisation did: the replaced blocks, the transactions in them, and the new head. */
export interface ChainReorg {
  chainId: number;
  /** The highest block kept; every block above it was replaced. */
  forkBlock: string;
  depth: number;
  /** The transactions of the replaced blocks, oldest first. */
  dropped: string[];
  /** Those of them mined again in the new branch (the same hashes, in new blocks); empty unless `reinclude`. */
  reincluded: string[];
  blockNumber: string;
  blockHash: string;
  timestamp: number;
}

/** A reorganisation the chain cannot make (deeper than its history). */
export class ReorgTooDeepError extends Error {}

export interface ChainReorgControl {
  /**
   * Replaces the chain's top `depth` blocks by new ones (anvil_reorg). With `reinclude` every
   * transaction of the replaced blocks is mined again, signed as it was, at the same offset from the
   * fork point, so it keeps its hash and lands in a block with a new hash; without it they are gone.
   */
  reorg(chainId: number, depth: number, reinclude: boolean): Promise<ChainReorg>;
}

interface RpcBlock {
  number: string;
  hash: string;
  timestamp: string;
  transactions: string[];
}

/** Reorganisations of one devnet chain through anvil_reorg, for integrators' reorg handling. */
export function createChainReorgControl(clients: ChainClients): ChainReorgControl {
  async function rpc<T>(chainId: number, method: string, params: unknown[]): Promise<T> {
    const response = await fetch(clients.get(chainId).chain.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    const answer = (await response.json()) as { result?: T; error?: { message: string } };
    if (answer.error) throw new Error(`${method}: ${answer.error.message}`);
    return answer.result as T;
  }
  const block = (chainId: number, tag: string) =>
    rpc<RpcBlock>(chainId, "eth_getBlockByNumber", [tag, false]);

  // One reorganisation at a time per devnet: two at once would read each other's half-replaced blocks.
  let queue: Promise<unknown> = Promise.resolve();

  async function reorgNow(chainId: number, depth: number, reinclude: boolean): Promise<ChainReorg> {
    const head = Number((await block(chainId, "latest")).number);
    // Block 0 (genesis) is never replaced.
    if (depth > head) throw new ReorgTooDeepError(`depth ${depth} is deeper than the chain's ${head} blocks`);
    const forkBlock = head - depth;
    const dropped: string[] = [];
    const pairs: [string, number][] = [];
    for (let offset = 0; offset < depth; offset += 1) {
      const replaced = await block(chainId, `0x${(forkBlock + 1 + offset).toString(16)}`);
      for (const hash of replaced.transactions) {
        dropped.push(hash);
        if (reinclude)
          pairs.push([await rpc<string>(chainId, "eth_getRawTransactionByHash", [hash]), offset]);
      }
    }
    await rpc(chainId, "anvil_reorg", [depth, pairs]);
    const newHead = await block(chainId, "latest");
    return {
      chainId,
      forkBlock: String(forkBlock),
      depth,
      dropped,
      reincluded: reinclude ? [...dropped] : [],
      blockNumber: String(Number(newHead.number)),
      blockHash: newHead.hash,
      timestamp: Number(newHead.timestamp),
    };
  }

  return {
    reorg(chainId, depth, reinclude) {
      const done = queue.then(() => reorgNow(chainId, depth, reinclude));
      queue = done.catch(() => undefined);
      return done;
    },
  };
}
