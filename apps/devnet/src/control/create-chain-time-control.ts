import { createTestClient, http } from "viem";
import type { ChainClients } from "../create-chain-clients.js";

/** The chain's head after a time move. */
export interface ChainHead {
  chainId: number;
  blockNumber: string;
  timestamp: number;
}

export interface ChainTimeControl {
  /** Moves the chain's clock forward and mines one block carrying the new time. */
  increaseTime(chainId: number, seconds: number): Promise<ChainHead>;
  mine(chainId: number, blocks: number): Promise<ChainHead>;
}

/** Time travel on one devnet chain (anvil's evm_increaseTime and evm_mine), for expiry and refund tests. */
export function createChainTimeControl(clients: ChainClients): ChainTimeControl {
  function testClient(chainId: number) {
    const client = clients.get(chainId);
    return {
      client,
      test: createTestClient({
        mode: "anvil",
        chain: client.viemChain,
        transport: http(client.chain.rpcUrl),
      }),
    };
  }

  async function head(chainId: number): Promise<ChainHead> {
    const block = await clients.get(chainId).publicClient.getBlock({ blockTag: "latest" });
    return { chainId, blockNumber: block.number.toString(), timestamp: Number(block.timestamp) };
  }

  return {
    async increaseTime(chainId, seconds) {
      const { test } = testClient(chainId);
      await test.increaseTime({ seconds });
      await test.mine({ blocks: 1 });
      return head(chainId);
    },
    async mine(chainId, blocks) {
      const { test } = testClient(chainId);
      await test.mine({ blocks });
      return head(chainId);
    },
  };
}
