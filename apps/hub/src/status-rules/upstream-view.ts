import type { UpstreamFailedAt, UpstreamState } from "./upstream-state.js";

/** One state the hub read on the way; `at` is the read's time (RFC 3339 UTC with milliseconds). */
export interface UpstreamHistoryEntry {
  state: UpstreamState;
  at: string;
}

/** UpstreamOrderStatus as the hub keeps and serves it: advisory, never proof of settlement. */
export interface UpstreamView {
  state: UpstreamState;
  stateSource: "upstream-advisory";
  finalityVerified: false;
  upstreamFillReported: boolean;
  fillTransaction?: string;
  failedAt?: UpstreamFailedAt;
  failureReason?: string;
  history: UpstreamHistoryEntry[];
  rejectedUpstreamTransition: boolean;
  upstreamStale: boolean;
}

/**
 * What the OIF aggregator answered for an order: `status` is its raw JSON (a lowercase state string,
 * or `{"failed": [TxType, message]}`), `fillTransaction` its raw fill reference (a hash string, or the
 * solver's `{hash, status, timestamp}` object), null or absent when it has none.
 */
export interface UpstreamReport {
  status: unknown;
  fillTransaction?: unknown;
}
