import {
  canonicalSha256,
  HubError,
  hubOrderId,
  type OrderCreateAck,
  type OrderCreateRequest,
} from "@hub/contract";
import { reapproveOpenFlowQuote } from "../../open-flow/reapprove-open-flow-quote.js";
import { verifyOpenFlowSignature } from "../../open-flow/verify-open-flow-signature.js";
import type { QuoteForSubmission } from "../../store/submission-store.js";
import type { Caller } from "../caller.js";
import type { OrderServiceDeps } from "./order-service-deps.js";
import { orderAckOf, ownedBy } from "./submission-answers.js";

/** Checks 3 to 7 and the one insert of a first registration (a quote without an order yet). */
async function registerFirst(
  deps: OrderServiceDeps,
  request: OrderCreateRequest,
  quote: QuoteForSubmission,
  id: string,
): Promise<OrderCreateAck> {
  const now = deps.clock.now();
  if (now >= quote.expiresAt.getTime()) {
    throw new HubError("EIN0005", {
      message:
        "Quote expired: a first registration is refused at or after expiresAt. A transaction already sent completes on chain unregistered; do not re-quote for it.",
    });
  }
  const providerState = deps.providerState?.(quote.providerId) ?? "unconfigured";
  if (providerState === "unconfigured" || !deps.registrations) {
    throw new HubError("EIN0007", {
      reference: "quoteId",
      message: "The provider of this quote is no longer configured on this deployment.",
    });
  }
  const template = reapproveOpenFlowQuote(quote, providerState);
  if (request.artifactHash.toLowerCase() !== template.signableHash.toLowerCase()) {
    throw new HubError("EIN0010", {
      reference: "artifactHash",
      message: "artifactHash is not the quote's disclosure.signableHash.",
    });
  }
  const signature = await verifyOpenFlowSignature(template, request, {
    unsignedAllowed: deps.unsignedOpenFlowRegistration ?? false,
  });
  const { created, ack } = await deps.registrations.register({
    hubOrderId: id,
    quote,
    lane: template.lane,
    requestFingerprint: canonicalSha256({
      quoteId: request.quoteId,
      artifactHash: request.artifactHash.toLowerCase(),
      signature: signature ?? null,
    }),
    signature,
    at: new Date(now),
  });
  if (created) {
    deps.logger.info(
      { hubOrderId: id, quoteId: quote.quoteId, lane: template.lane, signed: signature !== undefined },
      "open-flow order registered",
    );
  }
  return ack;
}

/**
 * POST /order registers an open-flow or solver-swap winner in one insert, after the spec's checks in
 * the spec's order: the quote's own checks (EIN0010); an existing order's ack; expiry (EIN0005);
 * configuration and re-approval (EIN0007); artifactHash and signature (EIN0010, EIN0006).
 */
export async function createOrder(
  deps: OrderServiceDeps,
  request: OrderCreateRequest,
  caller: Caller,
): Promise<OrderCreateAck> {
  const store = deps.store;
  // The quote and its order, when there is one, in one read: hubOrderId(quoteId) names the order.
  const id = hubOrderId(request.quoteId);
  const found = await store?.findQuoteForOrder(request.quoteId, id);
  if (!store || !found || !ownedBy(found.quote, caller)) {
    throw new HubError("EIN0010", { reference: "quoteId", message: "Unknown quote." });
  }
  const { quote } = found;
  const ack = orderAckOf(found.submission);
  if (ack) return ack;
  try {
    return await registerFirst(deps, request, quote, id);
  } catch (error) {
    // A repeat that raced the first registration ran its checks before that order committed;
    // once the order exists every repeat is answered its ack, whatever it carries (rule 6).
    const raced = error instanceof HubError ? orderAckOf(await store.find(id)) : undefined;
    if (raced) return raced;
    throw error;
  }
}
