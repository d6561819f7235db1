import type { Registry } from "prom-client";
import {
  createEvmChainReader,
  type EvmChainReader,
  type EvmChainReaderConfig,
} from "./chains/evm/create-evm-chain-reader.js";
import { redactRpcUrl } from "./chains/evm/evm-rpc-transport.js";
import { createChainRpcMetrics } from "./operations/chain-rpc-metrics.js";
import type { ReconcilerChainConfig } from "./reconciler/create-reconciler.js";

/** How the EVM readers talk to each chain's RPC URLs (timeouts, requests in flight, eth_getLogs range). */
export type ChainRpcOptions = Pick<
  EvmChainReaderConfig,
  "requestTimeoutMs" | "maxInFlight" | "maxLogRange" | "growAfter" | "transport"
>;

/**
 * The reconciler's EVM chain readers, each reporting its RPC attempts and eth_getLogs range to the
 * hub_chain_rpc_* metrics, which are registered here for every chain from the start.
 */
export function createMeteredChainReader(
  registry: Registry,
  chains: readonly ReconcilerChainConfig[],
  rpcOptions: ChainRpcOptions,
): (chain: ReconcilerChainConfig) => EvmChainReader {
  const chainRpc = createChainRpcMetrics(
    registry,
    chains.map((chain) => ({
      chainDomain: chain.chainDomain,
      hosts: (chain.rpcUrls ?? [chain.rpcUrl]).map(redactRpcUrl),
    })),
  );
  return (chain) => {
    const reader = createEvmChainReader({
      ...rpcOptions,
      rpcUrls: chain.rpcUrls ?? [chain.rpcUrl],
      observe: (event) => chainRpc.call(chain.chainDomain, event),
      onRangeChange: (span, reason) => {
        chainRpc.logRange(chain.chainDomain, span);
        if (reason === "refused") chainRpc.rangeRefused(chain.chainDomain);
      },
    });
    chainRpc.logRange(chain.chainDomain, reader.logRange());
    return reader;
  };
}
