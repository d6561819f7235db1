import type { Attestation, MandateOutput } from "@hub/chain";

/** `rejected`: a Solana-escrow fill that does not match its order, or whose order was already settled. */
export type AttestationState = "waiting" | "proven" | "rejected";

/** A fill the committee saw on an output settler, and the attestation it owes the origin chain. */
export interface ObservedFill {
  /** An EVM chain id; for a fill on Solana, the chain's OIF chain id as a decimal string. */
  fillChainId: number | string;
  orderId: `0x${string}`;
  solver: `0x${string}`;
  fillTimestamp: number;
  /** A transaction hash; for a fill on Solana, its signature. */
  fillTxHash: string;
  remoteOracle: `0x${string}`;
  application: `0x${string}`;
  payloadHash: `0x${string}`;
  observedAt: string;
  state: AttestationState;
  /** Known once the order's Open is found on a chain's escrow. */
  originChainId?: number;
  attestationTxHash?: `0x${string}`;
  /** Set for an order whose input the Solana escrow holds: that chain's domain and the release's signature. */
  originChainDomain?: string;
  releaseSignature?: string;
  /** The last submission failure, while the fill is still waiting (or why it was rejected). */
  lastError?: string;
}

/** A fill as the committee keeps it: what it shows, with the attestation it owes and when it saw it. */
export interface TrackedFill extends ObservedFill {
  observedAtMs: number;
  attestation: Attestation;
  /** The output an EVM OutputFilled names (a Solana → EVM release checks it); absent for fills on Solana. */
  output?: MandateOutput;
}
