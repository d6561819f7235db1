import type { DevnetChain } from "@hub/chain";
import { createRpcFaultProxy, type RpcFaultProxy, type RpcFaults } from "./create-rpc-fault-proxy.js";

/** One chain's faulty door: the proxy's URL, the node behind it, the knobs and what they did. */
export interface ChainRpcFaultsView {
  chainId: number;
  /** The URL that answers with the faults (the proxy). */
  rpcUrl: string;
  /** The node itself, never faulty: the manifest's and the catalog's `rpcUrl`. */
  nodeRpcUrl: string;
  faults: RpcFaults;
  stats: ReturnType<RpcFaultProxy["stats"]>;
}

export interface ChainRpcProxies {
  /** The proxy of each EVM chain, in the manifest's order. */
  urls(): { chainId: number; rpcUrl: string }[];
  view(chainId: number): ChainRpcFaultsView;
  /** Merges knobs into the chain's current ones. */
  set(chainId: number, faults: RpcFaults): ChainRpcFaultsView;
  /** Clears one chain's knobs (and its counters), or every chain's when no id is given. */
  clear(chainId?: number): void;
  /** Every chain's knobs, by chain id. */
  all(): Record<string, RpcFaults>;
  close(): Promise<void>;
}

/**
 * A fault-injecting JSON-RPC proxy in front of each devnet EVM chain, on its own port beside the
 * chain's own (docs/decisions.md, "Devnet RPC faults on a second port"). The devnet's services and
 * the manifest keep the node's URL; a client pointed at the proxy meets the faults set through
 * `/control/chains/{chain}/rpc-faults`.
 */
export async function createChainRpcProxies(options: {
  chains: readonly DevnetChain[];
  /** One port per chain; absent or 0 picks a free one. */
  ports?: readonly number[];
}): Promise<ChainRpcProxies> {
  const proxies = new Map<number, { node: string; proxy: RpcFaultProxy }>();
  try {
    for (const [index, chain] of options.chains.entries()) {
      const proxy = await createRpcFaultProxy({ target: chain.rpcUrl, port: options.ports?.[index] ?? 0 });
      proxies.set(chain.chainId, { node: chain.rpcUrl, proxy });
    }
  } catch (error) {
    await Promise.all([...proxies.values()].map(({ proxy }) => proxy.close()));
    throw error;
  }
  function entry(chainId: number) {
    const found = proxies.get(chainId);
    if (!found) throw new Error(`no RPC proxy for chain ${chainId}`);
    return found;
  }
  function view(chainId: number): ChainRpcFaultsView {
    const { node, proxy } = entry(chainId);
    return { chainId, rpcUrl: proxy.url, nodeRpcUrl: node, faults: proxy.faults(), stats: proxy.stats() };
  }
  function clearOne(proxy: RpcFaultProxy): void {
    proxy.setFaults({});
    proxy.resetStats();
  }
  return {
    urls: () => [...proxies].map(([chainId, { proxy }]) => ({ chainId, rpcUrl: proxy.url })),
    view,
    set(chainId, faults) {
      const { proxy } = entry(chainId);
      proxy.setFaults({ ...proxy.faults(), ...faults });
      return view(chainId);
    },
    clear(chainId) {
      if (chainId !== undefined) clearOne(entry(chainId).proxy);
      else for (const { proxy } of proxies.values()) clearOne(proxy);
    },
    all: () => Object.fromEntries([...proxies].map(([chainId, { proxy }]) => [chainId, proxy.faults()])),
    close: async () => {
      await Promise.all([...proxies.values()].map(({ proxy }) => proxy.close()));
    },
  };
}
