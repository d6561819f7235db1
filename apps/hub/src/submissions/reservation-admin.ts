import type { SqlClient } from "@hub/store";
import type { ChainView } from "../order-state/derive-chain-view.js";
import { getChainFacts } from "../reconciler/get-chain-facts.js";
import type { Clock } from "../services/clock.js";
import { firstUpstreamView } from "./first-upstream-view.js";
import { ReservationRefusal } from "./reservation-refusal.js";
import type { ReservationState } from "./reservation-rules.js";
import { createSubmissionStore, type Reservation } from "../store/submission-store.js";

/** A reservation as `hub admin reservations` prints it (JSON). */
export interface ReservationOut {
  hubOrderId: string;
  quoteId: string;
  orgId: string;
  subject: string;
  route: string;
  lane: string;
  state: ReservationState;
  attempt: number;
  upstreamProviderId: string;
  upstreamOrderId: string | null;
  onchainOrderId: string | null;
  onchainOrderIdSource: string | null;
  reservedAt: string;
  submittedAt: string | null;
  lastCode: string | null;
  lastDetail: string | null;
  reconciledAt: string | null;
  reconciledNote: string | null;
}

export interface ReservationAdmin {
  list(filter: { state?: ReservationState; orgId?: string; limit?: number }): Promise<{
    reservations: ReservationOut[];
  }>;
  /**
   * Settles a forwarding or unknown reservation by what the operator found: opened (with its on-chain
   * id: acked, so re-posts get the ack and the status read answers) or not opened (released, so a
   * re-post forwards again). The chain facts the reconciler holds are checked first.
   */
  reconcile(input: {
    hubOrderId: string;
    opened: { onchainOrderId: string } | false;
    note?: string;
  }): Promise<{ reservation: ReservationOut; chain: ChainView | null }>;
}

const ONCHAIN_ID = /^0x[0-9a-fA-F]{64}$/;

function out(reservation: Reservation): ReservationOut {
  const iso = (date: Date | undefined) => date?.toISOString() ?? null;
  return {
    hubOrderId: reservation.hubOrderId,
    quoteId: reservation.quoteId,
    orgId: reservation.orgId,
    subject: reservation.subject,
    route: reservation.route,
    lane: reservation.lane,
    state: reservation.state,
    attempt: reservation.attempt,
    upstreamProviderId: reservation.upstreamProviderId,
    upstreamOrderId: reservation.upstreamOrderId ?? null,
    onchainOrderId: reservation.onchainOrderId ?? null,
    onchainOrderIdSource: reservation.onchainOrderIdSource ?? null,
    reservedAt: reservation.reservedAt.toISOString(),
    submittedAt: iso(reservation.submittedAt),
    lastCode: reservation.lastCode ?? null,
    lastDetail: reservation.lastDetail ?? null,
    reconciledAt: iso(reservation.reconciledAt),
    reconciledNote: reservation.reconciledNote ?? null,
  };
}

function notPending(reservation: Reservation): ReservationRefusal {
  return new ReservationRefusal(
    "reservation-not-pending",
    `reservation ${reservation.hubOrderId} is ${reservation.state}: only a forwarding or unknown reservation is reconciled`,
  );
}

/** The operator's view of the reservations, straight on the database (PostgreSQL, or PGlite in process). */
export function createReservationAdmin(deps: { sql: SqlClient; clock: Clock }): ReservationAdmin {
  const store = createSubmissionStore(deps.sql);
  return {
    async list(filter) {
      const reservations = await store.list({
        state: filter.state,
        orgId: filter.orgId,
        limit: filter.limit ?? 500,
      });
      return { reservations: reservations.map(out) };
    },

    async reconcile({ hubOrderId, opened, note }) {
      const reservation = await store.find(hubOrderId);
      if (!reservation) {
        throw new ReservationRefusal("reservation-not-found", `no reservation ${hubOrderId}`);
      }
      if (reservation.state !== "forwarding" && reservation.state !== "unknown")
        throw notPending(reservation);
      const quote = await store.findQuote(reservation.quoteId);
      const at = new Date(deps.clock.now());

      if (opened) {
        if (!ONCHAIN_ID.test(opened.onchainOrderId)) {
          throw new ReservationRefusal(
            "invalid-onchain-order-id",
            `${opened.onchainOrderId} is not an on-chain order id (0x and 64 hex digits)`,
          );
        }
        const onchainOrderId = opened.onchainOrderId.toLowerCase();
        if (quote?.onchainOrderId !== undefined && quote.onchainOrderId !== onchainOrderId) {
          throw new ReservationRefusal(
            "onchain-order-id-mismatch",
            `the quote's recomputed on-chain id is ${quote.onchainOrderId}, not ${onchainOrderId}`,
          );
        }
        const chain = (await getChainFacts(deps.sql, onchainOrderId)) ?? null;
        const result = await store.reconcile({
          hubOrderId,
          finding: {
            opened: true,
            onchainOrderId,
            source: quote?.onchainOrderId === undefined ? "upstream" : "verified",
            view: firstUpstreamView(at),
          },
          note,
          at,
        });
        if (result.kind === "not-found")
          throw new ReservationRefusal("reservation-not-found", `no reservation ${hubOrderId}`);
        if (result.kind === "not-pending") throw notPending(result.reservation);
        if (result.kind === "onchain-id-taken") {
          throw new ReservationRefusal(
            "onchain-order-id-taken",
            `${onchainOrderId} is already recorded for another submission`,
          );
        }
        return { reservation: out(result.reservation), chain };
      }

      const recomputed = quote?.onchainOrderId;
      const chain = recomputed === undefined ? null : ((await getChainFacts(deps.sql, recomputed)) ?? null);
      if (chain !== null) {
        throw new ReservationRefusal(
          "opened-on-chain",
          `the chain shows ${recomputed} (${chain.status}): it opened; reconcile with --opened ${recomputed}`,
        );
      }
      const result = await store.reconcile({ hubOrderId, finding: { opened: false }, note, at });
      if (result.kind === "not-found")
        throw new ReservationRefusal("reservation-not-found", `no reservation ${hubOrderId}`);
      if (result.kind !== "done") throw notPending((result as { reservation: Reservation }).reservation);
      return { reservation: out(result.reservation), chain };
    },
  };
}
