import type { Clock } from "@hub/clock";
import { z } from "zod";
import { specOrder, specOrderStatus, specRefusalStatus } from "../oif-dialect.js";
import type { Aggregator } from "./aggregator.js";
import { AggregatorError } from "./aggregator-error.js";
import { type OrderResponse, orderSignaturePattern } from "./oif-order.js";
import type { QuoteResponse } from "./oif-quote.js";
import type { AggregatorQuoteRequest } from "./oif-quote-request.js";

/** POST /v1/orders as the specification has it; the signature as 0x hex (see docs/decisions.md). */
export const specPostOrderRequestSchema = z.object({
  order: z.unknown(),
  signature: z.string().regex(orderSignaturePattern, "hex, or standard base64 (a Solana envelope)"),
  quoteId: z.string().optional(),
  originSubmission: z
    .object({ mode: z.enum(["user", "protocol"]), schemes: z.array(z.string()).optional() })
    .optional(),
});

/** An answer of the face: HTTP status, headers and body. */
export interface FaceAnswer {
  statusCode: number;
  headers: Record<string, string>;
  body: unknown;
}

/** The aggregator in the specification's words: GetQuoteResponse, PostOrderResponse, GetOrderResponse. */
export interface SpecFace {
  quotes(request: AggregatorQuoteRequest): Promise<unknown>;
  submit(request: z.infer<typeof specPostOrderRequestSchema>): Promise<FaceAnswer>;
  order(id: string): Promise<unknown>;
}

const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/** The specification's Quote: no solverId and no checksum (`provider` names the solver), `eip712` payloads. */
function specQuote(quote: QuoteResponse): unknown {
  const { solverId, integrityChecksum: _checksum, ...rest } = quote;
  return {
    ...rest,
    order: specOrder(quote.order),
    provider: solverId,
    failureHandling: quote.failureHandling ?? "refund-automatic",
  };
}

/** The specification's GetOrderResponse: `id`, unix seconds, the plain status, no null fill. */
export function specOrderResponse(order: OrderResponse): unknown {
  const {
    orderId,
    orderType: _type,
    fillTransaction,
    status,
    createdAt,
    updatedAt,
    quoteId,
    ...rest
  } = order;
  return {
    id: orderId,
    status: specOrderStatus(status),
    createdAt: seconds(createdAt),
    updatedAt: seconds(updatedAt),
    ...(quoteId === null ? {} : { quoteId }),
    ...rest,
    ...(fillTransaction === null ? {} : { fillTransaction }),
  };
}

/**
 * The specification carries no integrity checksum and no solver id, so this face keeps every quote it
 * issued until `validUntil` and finds the one an order names by its `quoteId`; the `order` an order
 * carries is not trusted (the stored quote's is forwarded), as the reference solver does with a quoteId.
 */
export function createSpecFace(aggregator: Aggregator, clock: Clock): SpecFace {
  const issued = new Map<string, QuoteResponse>();

  function prune(): void {
    const now = Math.floor(clock.now() / 1000);
    for (const [id, quote] of issued)
      if (quote.validUntil !== undefined && quote.validUntil < now) issued.delete(id);
  }

  function refusal(error: AggregatorError): FaceAnswer {
    return {
      statusCode: error.statusCode,
      headers: error.headers,
      body: { status: specRefusalStatus(error.statusCode), message: error.message },
    };
  }

  return {
    async quotes(request) {
      prune();
      try {
        const answer = await aggregator.getQuotes(request);
        for (const quote of answer.quotes) issued.set(quote.quoteId, quote);
        return { quotes: answer.quotes.map(specQuote) };
      } catch (error) {
        // The specification answers a round without quotes with an empty list.
        if (error instanceof AggregatorError && error.code === "AGGREGATION_ERROR") return { quotes: [] };
        throw error;
      }
    },

    async submit(request) {
      const quote = request.quoteId === undefined ? undefined : issued.get(request.quoteId);
      if (!quote)
        return {
          statusCode: 400,
          headers: {},
          body: { status: "rejected", message: `quote ${request.quoteId ?? "(none)"} not found or expired` },
        };
      try {
        const order = await aggregator.submitOrder({
          quoteResponse: quote,
          signature: request.signature,
          ...(request.originSubmission ? { originSubmission: request.originSubmission } : {}),
        });
        return {
          statusCode: 200,
          headers: {},
          body: {
            orderId: order.orderId,
            status: "received",
            message: "Order received; the solver takes it from here",
            order: specOrder(quote.order),
          },
        };
      } catch (error) {
        if (error instanceof AggregatorError) return refusal(error);
        throw error;
      }
    },

    async order(id) {
      return specOrderResponse(await aggregator.getOrder(id));
    },
  };
}
