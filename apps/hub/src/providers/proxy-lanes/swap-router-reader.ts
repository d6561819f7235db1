import { swapRouterAbi } from "@hub/chain";
import { HubError } from "@hub/contract";
import type { Logger } from "pino";
import { type Address, createPublicClient, http, type PublicClient } from "viem";

/** The one pool of a chain's swap router: what it takes and what it swaps into (lowercase). */
export interface SwapRouterPool {
  tokenIn: `0x${string}`;
  tokenOut: `0x${string}`;
}

/** Where a swap router is: its chain and address. */
export interface SwapRouterRef {
  chainId: number;
  router: `0x${string}`;
}

/**
 * Reads a chain's swap router at quote time. A chain the hub has no RPC for is EIN0008 (the route is
 * not served here); a failed or slow read is EIN0050 (retry later).
 */
export interface SwapRouterReader {
  pool(ref: SwapRouterRef): Promise<SwapRouterPool>;
  /** What swapping amountIn of from yields of to (rounded down). */
  quoteExactInput(ref: SwapRouterRef, from: Address, to: Address, amountIn: bigint): Promise<bigint>;
  /** The least amountIn of from that yields at least amountOut of to (rounded up). */
  quoteExactOutput(ref: SwapRouterRef, from: Address, to: Address, amountOut: bigint): Promise<bigint>;
}

export interface SwapRouterReaderDeps {
  chains: readonly { chainId: number; rpcUrl: string }[];
  /** One read's timeout. */
  timeoutMs: number;
  logger: Logger;
}

export function createSwapRouterReader(deps: SwapRouterReaderDeps): SwapRouterReader {
  const clients = new Map<number, PublicClient>();
  for (const chain of deps.chains) {
    clients.set(
      chain.chainId,
      createPublicClient({ transport: http(chain.rpcUrl, { timeout: deps.timeoutMs, retryCount: 0 }) }),
    );
  }
  // The pool's tokens are immutable on the router: one successful read per process is enough.
  const pools = new Map<string, SwapRouterPool>();

  function clientOf(ref: SwapRouterRef): PublicClient {
    const client = clients.get(ref.chainId);
    if (!client) {
      throw new HubError("EIN0008", {
        message: `No viable route: the hub does not read chain ${ref.chainId}, so it cannot price its swap router.`,
      });
    }
    return client;
  }

  async function read<T>(ref: SwapRouterRef, what: string, run: (client: PublicClient) => Promise<T>) {
    const client = clientOf(ref);
    try {
      return await run(client);
    } catch (error) {
      deps.logger.warn(
        {
          chainId: ref.chainId,
          router: ref.router,
          read: what,
          error: (error as Error).message.split("\n")[0],
        },
        "swap router read failed at quote time",
      );
      throw new HubError("EIN0050");
    }
  }

  return {
    async pool(ref) {
      const key = `${ref.chainId}:${ref.router}`;
      const known = pools.get(key);
      if (known) return known;
      const [tokenIn, tokenOut] = await read(ref, "pool", (client) =>
        Promise.all([
          client.readContract({ address: ref.router, abi: swapRouterAbi, functionName: "tokenIn" }),
          client.readContract({ address: ref.router, abi: swapRouterAbi, functionName: "tokenOut" }),
        ]),
      );
      const pool = {
        tokenIn: (tokenIn as string).toLowerCase() as `0x${string}`,
        tokenOut: (tokenOut as string).toLowerCase() as `0x${string}`,
      };
      pools.set(key, pool);
      return pool;
    },
    quoteExactInput(ref, from, to, amountIn) {
      return read(ref, "quoteExactInput", (client) =>
        client.readContract({
          address: ref.router,
          abi: swapRouterAbi,
          functionName: "quoteExactInput",
          args: [from, to, amountIn],
        }),
      ) as Promise<bigint>;
    },
    quoteExactOutput(ref, from, to, amountOut) {
      return read(ref, "quoteExactOutput", (client) =>
        client.readContract({
          address: ref.router,
          abi: swapRouterAbi,
          functionName: "quoteExactOutput",
          args: [from, to, amountOut],
        }),
      ) as Promise<bigint>;
    },
  };
}
