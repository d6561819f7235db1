import type { Lane, QuoteWinner } from "@hub/contract";
import type { QuoteRoute } from "./resolve-quote-route.js";

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

/** Limits a round to one provider, and within it to one solver (prepare). */
export interface QuoteRoundScope {
  providerId?: string;
  solverId?: string;
}

/** What one provider call of a round came to: the outcome's kind and the candidates vetted from it. */
export interface ProviderAnswer {
  kind: "quotes" | "no-quotes" | "refused" | "rate-limited" | "auth-refused" | "unavailable";
  candidates: QuoteCandidate[];
}

/** One source's part of a round: its calls' answers, and the EIN0008 message when none leaves a candidate. */
export interface SourceAnswers {
  answers: ProviderAnswer[];
  noneMessage: string;
}

/** One provider kind as a source of quote rounds (OIF, proxy lanes, external). */
export interface CandidateSource {
  /** Whether this source has a provider in scope (prepare names one provider). */
  serves(scope: { providerId?: string }): boolean;
  /**
   * Asks the source's providers in scope for the route, in parallel, under the round's signal. Undefined
   * when the route is not this source's (no candidate, no refusal); throws a HubError when it cannot ask.
   */
  ask(route: QuoteRoute, scope: QuoteRoundScope, signal: AbortSignal): Promise<SourceAnswers | undefined>;
}
