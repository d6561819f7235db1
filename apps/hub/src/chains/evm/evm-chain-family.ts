import { addressToBytes32 } from "@hub/chain";
import { chainRpcCheck, reconcilerLagCheck } from "./evm-readiness-checks.js";
import type { CatalogChain } from "@hub/contract";
import { encodeInteropAddress } from "./interop-address.js";
import type { ChainFamily } from "../chain-family.js";
import { createEvmChainIndexer, type EvmIndexerOptions } from "./create-evm-chain-indexer.js";
import type { ReconcilerChainConfig } from "./reconciler-chain-config.js";

/**
 * The EVM family: its refund view is the escrow Open's (onchain-service) and its signatures are the
 * lane table's Permit2 and EIP-3009 forms, so its OIF form and readiness are its own here.
 */
/** A route's side on an EVM chain, as the family reads it (quotes' EvmRouteEnd). */
interface EvmEnd {
  chain: CatalogChain;
  token: `0x${string}`;
}

export const evmChainFamily: ChainFamily<ReconcilerChainConfig, EvmEnd, EvmIndexerOptions> = {
  name: "evm",
  indexer: createEvmChainIndexer,
  oif: {
    interop: (end, account) => ({
      account: encodeInteropAddress(end.chain.chainId, account),
      asset: encodeInteropAddress(end.chain.chainId, end.token),
    }),
    // Its chain id, token, output settler and input oracle.
    expectedOutput: (end, recipient) => ({
      chainId: BigInt(end.chain.chainId),
      token: addressToBytes32(end.token),
      settler: addressToBytes32(end.chain.outputSettler as `0x${string}`),
      oracle: addressToBytes32(end.chain.inputOracle as `0x${string}`),
      recipient: addressToBytes32(recipient as `0x${string}`),
      names: { chain: String(end.chain.chainId), token: end.token, recipient },
    }),
  },
  readinessChecks: (chain, context) => [
    chainRpcCheck(chain),
    ...(context.watermarks
      ? [
          // Failing or stale: degraded; reorganised below every kept block: not ready.
          reconcilerLagCheck(chain, context.watermarks, context.maxLag.blocks, context.staleness, () =>
            context.stateOf(chain.chainDomain),
          ),
        ]
      : []),
  ],
};
