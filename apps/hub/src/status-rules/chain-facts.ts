import type { MandateOutputRecord, StandardOrderRecord } from "./standard-order-record.js";

/** Where a log was observed. blockTimestamp: RFC 3339 UTC of the block holding the log. */
export interface ChainLogRef {
  chainDomain: string;
  blockNumber: number;
  blockHash: string;
  blockTimestamp: string;
  txHash: string;
  logIndex: number;
  /**
   * Set on the views' copies: whether the block is final by its chain's finality rule. A fact that is
   * not final may still be reorganised away, and no terminal state comes from it.
   */
  final?: boolean;
}

export interface OpenFact extends ChainLogRef {
  settler: string;
  order: StandardOrderRecord;
}

export interface OutputFilledFact extends ChainLogRef {
  settler: string;
  solver: string;
  /** The event's own timestamp (uint32 unix seconds), the one finalise compares with fillDeadline. */
  timestamp: number;
  output: MandateOutputRecord;
  finalAmount: string;
}

export interface FinalisedFact extends ChainLogRef {
  settler: string;
  solver: string;
  destination: string;
}

export interface RefundedFact extends ChainLogRef {
  settler: string;
}

/**
 * What an order on a vault escrow commits to (a family whose user deposits into the escrow's vault with
 * a memo instead of calling open), from the hub's quote once it hashes to the order id.
 */
export interface EscrowOrderTerms {
  /** base58. */
  user: string;
  mint: string;
  amount: string;
  /** Unix seconds. */
  expires: number;
  fillDeadline: number;
  output: MandateOutputRecord;
}

/**
 * A deposit into a vault escrow whose memo names the order (a transaction of that family: txHash is its
 * signature, blockNumber its slot, blockHash empty, logIndex the memo instruction).
 */
export interface EscrowDepositFact extends ChainLogRef {
  /** The escrow settler that owns the vault (base58). */
  settler: string;
  vault: string;
  /** Who signed the transfer (base58). */
  user: string;
  mint: string;
  amount: string;
  /** Absent when the hub holds no quote whose terms hash to the order id. */
  terms?: EscrowOrderTerms;
}

/** Every indexed event for one on-chain order id. */
export interface ChainFacts {
  onchainOrderId: string;
  open?: OpenFact;
  /** A vault escrow's counterpart of open: releases and refunds land in finalised and refunded. */
  escrowDeposit?: EscrowDepositFact;
  fills: OutputFilledFact[];
  finalised?: FinalisedFact;
  refunded?: RefundedFact;
}
