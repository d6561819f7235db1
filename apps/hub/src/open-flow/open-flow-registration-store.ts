import type { OrderCreateAck } from "@hub/contract";
import type { SqlClient } from "@hub/store";
import type { QuoteForSubmission } from "../submissions/submission-store.js";
import type { RegistrableLane } from "../lanes/lane-table.js";
import type { RegistrationSignature } from "./verify-open-flow-signature.js";

export interface NewRegistration {
  hubOrderId: string;
  quote: QuoteForSubmission;
  lane: RegistrableLane;
  /** SHA-256 hex of the canonical body of the registering request. */
  requestFingerprint: string;
  signature: RegistrationSignature | undefined;
  at: Date;
}

export interface OpenFlowRegistrationStore {
  /**
   * Records the order in one transaction: the acked submissions row (route 'order') and its
   * registration. The quote's unique submission decides a race: the loser writes nothing and gets
   * the winner's ack (`created` false).
   */
  register(input: NewRegistration): Promise<{ created: boolean; ack: OrderCreateAck }>;
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

export function createOpenFlowRegistrationStore(sql: SqlClient): OpenFlowRegistrationStore {
  return {
    register: ({ hubOrderId, quote, lane, requestFingerprint, signature, at }) =>
      sql.transaction(async (tx) => {
        const inserted = await tx.query<AckRow>(
          `INSERT INTO submissions (hub_order_id, quote_id, org_id, subject, route, lane, request_fingerprint,
                                    state, attempt, upstream_provider_id, reserved_at, submitted_at)
           VALUES ($1, $2, $3, $4, 'order', $5, $6, 'acked', 1, $7, $8, $8)
           ON CONFLICT DO NOTHING
           RETURNING hub_order_id, quote_id, state, submitted_at`,
          [
            hubOrderId,
            quote.quoteId,
            quote.orgId,
            quote.subject,
            lane,
            requestFingerprint,
            quote.providerId,
            at.toISOString(),
          ],
        );
        const row = inserted[0];
        if (row) {
          await tx.query(
            `INSERT INTO open_flow_registrations (hub_order_id, quote_id, lane, signer, scheme, signature, registered_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7)`,
            [
              hubOrderId,
              quote.quoteId,
              lane,
              signature?.signer ?? null,
              signature?.scheme ?? null,
              signature?.signature ?? null,
              at.toISOString(),
            ],
          );
          return { created: true, ack: ackOf(row) };
        }
        const [existing] = await tx.query<AckRow>(
          "SELECT hub_order_id, quote_id, state, submitted_at FROM submissions WHERE quote_id = $1",
          [quote.quoteId],
        );
        if (!existing)
          throw new Error(`quote ${quote.quoteId}: the submission conflicted and then was not found`);
        return { created: false, ack: ackOf(existing) };
      }),
  };
}
