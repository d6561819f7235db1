/** The states of a reservation (packages/store/migrations/0003_quotes_and_submissions.sql). */
export const reservationStates = ["forwarding", "acked", "unknown", "refused", "released"] as const;

/** One reservation state. */
export type ReservationState = (typeof reservationStates)[number];

/** One reservation as the hub stores it. */
export interface ReservationRecord {
  hubOrderId: string;
  quoteId: string;
  orgId: string;
  subject: string;
  route: "openfor" | "order";
  lane: string;
  state: ReservationState;
  attempt: number;
  upstreamProviderId: string;
  upstreamOrderId: string | undefined;
  onchainOrderId: string | undefined;
  onchainOrderIdSource: "upstream" | "verified" | undefined;
  reservedAt: Date;
  submittedAt: Date | undefined;
  lastCode: string | undefined;
  lastDetail: string | undefined;
  reconciledAt: Date | undefined;
  reconciledNote: string | undefined;
}

/** The chain object the reconciler holds for an order (status, fills, settle, refund, deadlines). */
export interface ReservationChainView {
  status: string;
}

/** What the operator found: the forward opened the order (with the id to record and its source), or not. */
export type ReservationFinding =
  | { opened: true; onchainOrderId: string; source: "upstream" | "verified" }
  | { opened: false };

export type ReservationReconcileResult =
  | { kind: "done"; reservation: ReservationRecord }
  | { kind: "not-found" }
  | { kind: "not-pending"; reservation: ReservationRecord }
  | { kind: "onchain-id-taken" };

/** The hub's reservations as the admin reads and settles them; the hub implements it on its store. */
export interface ReservationBook {
  /** Oldest first. */
  list(filter: { state?: ReservationState; orgId?: string; limit: number }): Promise<ReservationRecord[]>;
  find(hubOrderId: string): Promise<ReservationRecord | undefined>;
  /** The on-chain id the hub recomputed for the quote at quote time, if it did. */
  recomputedOnchainOrderId(quoteId: string): Promise<string | undefined>;
  chainView(onchainOrderId: string): Promise<ReservationChainView | undefined>;
  /** Writes the finding to a forwarding or unknown reservation, in one transaction. */
  reconcile(input: {
    hubOrderId: string;
    finding: ReservationFinding;
    note: string | undefined;
    at: Date;
  }): Promise<ReservationReconcileResult>;
}
