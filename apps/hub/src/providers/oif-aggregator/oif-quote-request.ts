import type { OifProduct } from "../../lanes/lane-table.js";

/** The OIF aggregator's quote request as the hub sends it (every address an ERC-7930 interop address). */
export interface OifQuoteRequest {
  user: string;
  intent: {
    intentType: "oif-swap";
    inputs: { user: string; asset: string; amount?: string }[];
    outputs: { receiver: string; asset: string; amount?: string }[];
    swapType: "exact-input" | "exact-output";
    originSubmission?: { mode: "user" | "protocol"; schemes?: string[] };
    minValidUntil?: number;
  };
  supportedTypes: OifProduct[];
  solverOptions?: {
    includeSolvers?: string[];
    excludeSolvers?: string[];
    timeout?: number;
    solverTimeout?: number;
  };
}
