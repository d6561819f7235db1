import type { DevnetManifest } from "@hub/chain";
import type { Clock } from "@hub/clock";
import type { Catalog } from "@hub/contract";
import type { ChainClients } from "../create-chain-clients.js";
import type { Relayer } from "../relayer/create-relayer.js";
import { type ExternalAggregatorState, findExternalQuote } from "./external-aggregator-state.js";
import type { ExternalQuote, ExternalQuoteRequest, ExternalTransferStatus } from "./external-quote.js";
import { externalTransferStatus } from "./external-transfer-status.js";
import { quoteExternal } from "./quote-external.js";

export interface ExternalAggregatorConfig {
  manifest: DevnetManifest;
  catalog: Catalog;
  /** Must equal the relayer's fee: the quote promises what the relayer will release. */
  feeBps: number;
  quoteLifetimeMs?: number;
  provider?: string;
}

export interface ExternalAggregatorDeps {
  clients: ChainClients;
  clock: Clock;
  relayer: Relayer;
}

export interface ExternalAggregator {
  quote(request: ExternalQuoteRequest): Promise<ExternalQuote>;
  getQuote(quoteId: string): ExternalQuote;
  getStatus(quoteId: string): ExternalTransferStatus;
}

/**
 * The external aggregator: a cross-chain transfer of a declared token through the bridge (kind
 * `bridge`, the open-flow lane, with the transactions the wallet sends itself), a same-chain swap of
 * two declared tokens (`solver-swap`) and a same-token transfer (`transfer`); the last two are priced
 * only and disclose nothing to send.
 */
export function createExternalAggregator(
  config: ExternalAggregatorConfig,
  deps: ExternalAggregatorDeps,
): ExternalAggregator {
  const state: ExternalAggregatorState = {
    manifest: config.manifest,
    catalog: config.catalog,
    feeBps: config.feeBps,
    lifetimeMs: config.quoteLifetimeMs ?? 30_000,
    provider: config.provider ?? "devnet-bridge",
    clients: deps.clients,
    clock: deps.clock,
    relayer: deps.relayer,
    quotes: new Map(),
  };
  return {
    quote: (request) => quoteExternal(state, request),
    getQuote: (quoteId) => findExternalQuote(state, quoteId),
    getStatus: (quoteId) => externalTransferStatus(state, quoteId),
  };
}
