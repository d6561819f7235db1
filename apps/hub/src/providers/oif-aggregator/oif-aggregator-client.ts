import type { SubmitOrderOutcome } from "../provider-kind.js";
import type { OifProviderConfig } from "./oif-aggregator-config.js";
import { type GetOrderOutcome, getOifOrder } from "./get-oif-order.js";
import type { OifQuoteRequest } from "./oif-quote-request.js";
import { type QuoteOutcome, requestOifQuotes } from "./request-oif-quotes.js";
import { submitOifOrder } from "./submit-oif-order.js";
import { oifDialectTables } from "./oif-dialects.js";
import {
  createUpstreamSender,
  notReadyReason,
  type UpstreamCallObserver,
} from "../../upstream/upstream-http.js";

export type { SubmitOrderOutcome } from "../provider-kind.js";
export type { UnavailableReason } from "../../upstream/upstream-http.js";
export type { GetOrderOutcome } from "./get-oif-order.js";
export type { QuoteOutcome } from "./request-oif-quotes.js";

/**
 * The hub's way to one OIF upstream (POST quotes, POST orders, GET orders/{id} below the dialect's
 * path prefix). Whatever the provider's dialect, callers see one shape: quotes as QuoteResponse objects
 * with a `solverId`, order reads with `orderId` and the status in the hub's report form.
 */
export interface OifAggregatorClient {
  readonly provider: OifProviderConfig;
  quote(request: OifQuoteRequest, signal?: AbortSignal): Promise<QuoteOutcome>;
  /**
   * Forwards a signed order: the reference aggregator gets `quoteResponse` verbatim (its integrity
   * checksum included); the specification gets its `order` and `quoteId`.
   */
  submitOrder(
    input: { quoteResponse: unknown; signature?: string },
    signal?: AbortSignal,
  ): Promise<SubmitOrderOutcome>;
  getOrder(upstreamOrderId: string, signal?: AbortSignal): Promise<GetOrderOutcome>;
  /** Readiness: the dialect's probe (oifDialectTables' `probe`) answers as it should; else why not. */
  ready(signal: AbortSignal): Promise<string | undefined>;
  close(): Promise<void>;
}

/** An OIF upstream client over one keep-alive pool, each call under the provider's timeout and the caller's signal. */
export function createOifAggregatorClient(
  provider: OifProviderConfig,
  observe?: UpstreamCallObserver,
): OifAggregatorClient {
  const { send, close } = createUpstreamSender(provider, observe);
  const table = oifDialectTables[provider.dialect];
  return {
    provider,
    async ready(signal) {
      const { path, readyBelow } = table.probe;
      return notReadyReason(await send("GET", path, undefined, signal), (status) => status < readyBelow);
    },
    quote: (request, signal) => requestOifQuotes(send, provider, request, signal),
    submitOrder: (input, signal) => submitOifOrder(send, provider, input, signal),
    getOrder: (upstreamOrderId, signal) => getOifOrder(send, provider, upstreamOrderId, signal),
    close,
  };
}
