import type { EvmFinality } from "./evm-finality.js";

/** An EVM chain as the reconciler indexes it: its RPC URLs, the settlers and bridges it reads, from where. */
export interface ReconcilerChainConfig {
  /** CAIP-2, e.g. "eip155:31337"; the watermark's key. */
  chainDomain: string;
  chainId: number;
  rpcUrl: string;
  /** Every RPC URL of the chain in preference order (rpcUrl first); absent: rpcUrl alone. */
  rpcUrls?: readonly string[];
  inputSettlers: readonly string[];
  outputSettler: string;
  /** Open-flow Bridge contracts: their Deposited and Released logs are indexed with the settlers' facts. */
  bridges?: readonly string[];
  /** First block indexed when the chain has no watermark yet (the deployment block). */
  startBlock: number;
  /**
   * When a block is final (docs/order-states.md): facts from later blocks are shown marked not final
   * and never make a terminal state. Absent: every indexed block is final (depth 0); a catalog chain
   * without a setting gets the `finalized` tag at start.
   */
  finality?: EvmFinality;
}
