import type { Lane, QuoteWinner } from "@hub/contract";

/** The least validity a quote must have left when it is disclosed, so the user can still act on it. */
export const MIN_SIGNING_WINDOW_MS = 5000;

/** The ids and expiry the hub gives a winner when it discloses it. */
export interface WinnerIdentity {
  quoteRequestId: string;
  quoteId: string;
  /** Milliseconds since the epoch. */
  expiresAtMs: number;
}

/**
 * A vetted upstream answer from any provider kind (an OIF aggregator, an external aggregator), ready to
 * be ranked against the others and disclosed if it wins. Every source of a quote round produces these.
 */
export interface QuoteCandidate {
  /** The configured provider it came through. */
  providerId: string;
  solverId: string;
  /** The provider id offers and winners carry: `<providerId>.<solverId>`. */
  offerProvider: string;
  lane: Lane;
  executionClass: string;
  upstreamQuoteId: string;
  /** What the user pays, in base units of the request's sourceAsset. */
  inputAmount: bigint;
  /** What the recipient is quoted to receive, in base units of the request's destinationAsset. */
  outputAmount: bigint;
  etaSeconds: number | undefined;
  /** The upstream's own validity, milliseconds since the epoch; expiresAt never passes it. */
  validUntilMs: number;
  /** How long after issue the quote stays registrable: expiresAt (undefined), or longer on the proxy lanes. */
  registrableForMs: number | undefined;
  /**
   * The validity the candidate must still have once every source of the round has answered; the
   * round's own minimum when undefined. Open-flow winners ask more: the user mines two transactions
   * before POST /order, which refuses a first registration after expiresAt.
   */
  minValidityMs?: number;
  /** The on-chain order id when the hub knows it at quote time. */
  onchainOrderId: `0x${string}` | undefined;
  /**
   * The disclosed winner (identity, terms and the lane's own fields) and the template stored with the
   * quote for its submission (never shown to the client; JSON).
   */
  disclose(identity: WinnerIdentity): { winner: QuoteWinner; template: Record<string, unknown> };
}

/** What one source of a round gives: its candidates, or a refusal (a HubError) when it has none. */
export interface CandidateSource {
  /** Whether this source has a provider in scope (prepare names one provider). */
  serves(scope: { providerId?: string }): boolean;
  run(
    route: import("./resolve-quote-route.js").QuoteRoute,
    scope: { providerId?: string; solverId?: string },
    signal: AbortSignal | undefined,
  ): Promise<QuoteCandidate[]>;
}
