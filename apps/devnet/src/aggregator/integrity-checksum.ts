import { createHmac, timingSafeEqual } from "node:crypto";
import type { QuoteResponse } from "./oif-quote.js";

type ChecksummedFields = Omit<QuoteResponse, "integrityChecksum" | "metadata">;

const failureHandlingDebug: Record<string, string> = {
  "refund-automatic": "RefundAutomatic",
  "refund-claim": "RefundClaim",
  "needs-new-signature": "NeedsNewSignature",
};

// The preview is serialised in the reference's struct field order, so a client that reorders keys
// while echoing the quote still verifies; absent optional fields are left out, as serde does.
function previewJson(preview: QuoteResponse["preview"]): string {
  const inputs = preview.inputs.map((i) => ({
    user: i.user,
    asset: i.asset,
    amount: i.amount,
    lock: i.lock,
  }));
  const outputs = preview.outputs.map((o) => ({
    receiver: o.receiver,
    asset: o.asset,
    amount: o.amount,
    calldata: o.calldata,
  }));
  return JSON.stringify({ inputs, outputs });
}

/** The exact string the reference aggregator signs; the order payload itself is not covered. */
export function integrityPayload(quote: ChecksummedFields): string {
  return [
    `quote_id:${quote.quoteId}`,
    `solver_id:${quote.solverId}`,
    "version:v0",
    `provider:${quote.provider ?? quote.solverId}`,
    `valid_until:${quote.validUntil ?? 0}`,
    `eta:${quote.eta ?? 0}`,
    "orders_count:1",
    `details:order_type:${quote.order.type}`,
    `preview:${previewJson(quote.preview)}`,
    `failure_handling:${quote.failureHandling ? failureHandlingDebug[quote.failureHandling] : "none"}`,
    `partial_fill:${quote.partialFill}`,
  ].join(";");
}

/** HMAC-SHA256 of the integrity payload as 64 lowercase hex characters, no prefix. */
export function computeIntegrityChecksum(secret: string, quote: ChecksummedFields): string {
  return createHmac("sha256", secret).update(integrityPayload(quote), "utf8").digest("hex");
}

export function verifyIntegrityChecksum(secret: string, quote: QuoteResponse): boolean {
  const expected = Buffer.from(computeIntegrityChecksum(secret, quote), "utf8");
  const given = Buffer.from(quote.integrityChecksum.toLowerCase(), "utf8");
  return expected.length === given.length && timingSafeEqual(expected, given);
}
