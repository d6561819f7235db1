import type { MandateOutputRecord, StandardOrderRecord } from "./standard-order-record.js";

/** Where a log was observed. blockTimestamp: RFC 3339 UTC of the block holding the log. */
export interface ChainLogRef {
  chainDomain: string;
  blockNumber: number;
  blockHash: string;
  blockTimestamp: string;
  txHash: string;
  logIndex: number;
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

/** Every indexed event for one on-chain order id. */
export interface ChainFacts {
  onchainOrderId: string;
  open?: OpenFact;
  fills: OutputFilledFact[];
  finalised?: FinalisedFact;
  refunded?: RefundedFact;
}
