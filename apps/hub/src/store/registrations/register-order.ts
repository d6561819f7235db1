import type { OPEN_FLOW_SIGNATURE_SCHEME, OrderCreateAck } from "@hub/contract";
import type { SqlClient } from "@hub/store";
import type { RegistrableLane } from "../../lanes/lane-table.js";
import type { QuoteForSubmission } from "../reservations/submission-quote.js";

/** The signature set a registration records: absent on an admitted unsigned registration. */
export interface RegistrationSignature {
  signature: `0x${string}`;
  /** Lowercase. */
  signer: `0x${string}`;
  scheme: typeof OPEN_FLOW_SIGNATURE_SCHEME;
}

export interface NewRegistration {
  hubOrderId: string;
  quote: QuoteForSubmission;
  lane: RegistrableLane;
  /** SHA-256 hex of the canonical body of the registering request. */
  requestFingerprint: string;
  signature: RegistrationSignature | undefined;
  at: Date;
}

interface AckRow {
  hub_order_id: string;
  quote_id: string;
  state: string;
  submitted_at: Date | string | null;
}

function ackOf(row: AckRow): OrderCreateAck {
  if (row.state !== "acked" || row.submitted_at === null) {
    throw new Error(`the submission of quote ${row.quote_id} is ${row.state}, not an order`);
  }
  return {
    orderId: row.hub_order_id,
    quoteId: row.quote_id,
    createdAt: new Date(row.submitted_at).toISOString(),
  };
}

export async function registerOrder(
  sql: SqlClient,
  { hubOrderId, quote, lane, requestFingerprint, signature, at }: NewRegistration,
): Promise<{ created: boolean; ack: OrderCreateAck }> {
  // One statement, so one transaction and one round trip: the registration row is written only
  // beside a submissions row this statement inserted.
  const [row] = await sql.query<AckRow>(
    `WITH submission AS (
       INSERT INTO submissions (hub_order_id, quote_id, org_id, subject, route, lane, request_fingerprint,
                                state, attempt, upstream_provider_id, reserved_at, submitted_at)
       VALUES ($1, $2, $3, $4, 'order', $5, $6, 'acked', 1, $7, $8, $8)
       ON CONFLICT DO NOTHING
       RETURNING hub_order_id, quote_id, state, submitted_at
     ), registration AS (
       INSERT INTO open_flow_registrations (hub_order_id, quote_id, lane, signer, scheme, signature, registered_at)
       SELECT hub_order_id, quote_id, $5, $9::text, $10::text, $11::text, $8 FROM submission
     )
     SELECT hub_order_id, quote_id, state, submitted_at FROM submission`,
    [
      hubOrderId,
      quote.quoteId,
      quote.orgId,
      quote.subject,
      lane,
      requestFingerprint,
      quote.providerId,
      at.toISOString(),
      signature?.signer ?? null,
      signature?.scheme ?? null,
      signature?.signature ?? null,
    ],
  );
  if (row) return { created: true, ack: ackOf(row) };
  // Another registration holds the quote: its statement has committed (ON CONFLICT waits for it).
  const [existing] = await sql.query<AckRow>(
    "SELECT hub_order_id, quote_id, state, submitted_at FROM submissions WHERE quote_id = $1",
    [quote.quoteId],
  );
  if (!existing) throw new Error(`quote ${quote.quoteId}: the submission conflicted and then was not found`);
  return { created: false, ack: ackOf(existing) };
}
