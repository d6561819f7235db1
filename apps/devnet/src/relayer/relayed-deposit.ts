export type RelayedDepositState = "pending" | "released" | "unroutable";

/** One deposit the relayer saw, and what became of it. */
export interface RelayedDeposit {
  depositId: `0x${string}`;
  ref: `0x${string}`;
  sourceChainId: number;
  destinationChainId: number;
  depositor: `0x${string}`;
  sourceToken: `0x${string}`;
  destinationToken?: `0x${string}`;
  amount: string;
  releaseAmount: string;
  recipient: `0x${string}`;
  depositTxHash: `0x${string}`;
  state: RelayedDepositState;
  releaseTxHash?: `0x${string}`;
  /** Why the deposit is unroutable, or the last release failure while it is pending. */
  reason?: string;
}
