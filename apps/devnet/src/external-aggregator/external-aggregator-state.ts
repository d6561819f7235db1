import { randomBytes } from "node:crypto";
import type { DevnetManifest } from "@hub/chain";
import type { Clock } from "@hub/clock";
import type { Catalog } from "@hub/contract";
import type { ChainClients } from "../create-chain-clients.js";
import type { Relayer } from "../relayer/create-relayer.js";
import { ExternalAggregatorError } from "./external-aggregator-error.js";
import type { ExternalQuote, ExternalQuoteRequest } from "./external-quote.js";

/** What the aggregator's operations share: the devnet, its terms and the quotes issued. */
export interface ExternalAggregatorState {
  readonly manifest: DevnetManifest;
  readonly catalog: Catalog;
  readonly feeBps: number;
  readonly lifetimeMs: number;
  readonly provider: string;
  readonly clients: ChainClients;
  readonly clock: Clock;
  readonly relayer: Relayer;
  readonly quotes: Map<string, ExternalQuote>;
}

export function findExternalQuote(state: ExternalAggregatorState, quoteId: string): ExternalQuote {
  const quote = state.quotes.get(quoteId);
  if (!quote) throw new ExternalAggregatorError(404, "QUOTE_NOT_FOUND", `no quote ${quoteId}`);
  return quote;
}

/** The fields every quote kind shares, under a fresh quote id. */
export function issueQuoteFields(
  { provider, clock, lifetimeMs }: ExternalAggregatorState,
  request: ExternalQuoteRequest,
  amountIn: bigint,
  amountOut: bigint,
  feeAmount: bigint,
) {
  return {
    quoteId: `xq_${randomBytes(16).toString("base64url")}`,
    provider,
    sourceAsset: request.sourceAsset,
    destinationAsset: request.destinationAsset,
    amountIn: amountIn.toString(),
    amountOut: amountOut.toString(),
    feeAmount: feeAmount.toString(),
    recipient: request.recipient as `0x${string}`,
    ...(request.sourceAccount ? { sourceAccount: request.sourceAccount as `0x${string}` } : {}),
    expiresAt: new Date(clock.now() + lifetimeMs).toISOString(),
  };
}
