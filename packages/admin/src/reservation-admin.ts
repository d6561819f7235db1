import type { Clock } from "@hub/clock";
import { adminLimits } from "./admin-limits.js";
import { AdminRefusal } from "./admin-refusal.js";
import type {
  ReservationBook,
  ReservationChainView,
  ReservationRecord,
  ReservationState,
} from "./reservation-book.js";

/** A reservation as `hub admin reservations` prints it (JSON). */
export interface ReservationInfo {
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

/** The operator's verbs on the submission reservations. */
export interface ReservationAdmin {
  listReservations(input: { state?: ReservationState; orgId?: string; limit?: number }): Promise<{
    reservations: ReservationInfo[];
  }>;
  /**
   * Settles a forwarding or unknown reservation by what the operator found: opened (with its on-chain
   * id: acked, so re-posts get the ack and the status read answers) or not opened (released, so a
   * re-post forwards again). The chain facts the reconciler holds are checked first.
   */
  reconcileReservation(input: {
    hubOrderId: string;
    opened: { onchainOrderId: string } | false;
    note?: string;
  }): Promise<{ reservation: ReservationInfo; chain: ReservationChainView | null }>;
}

const ONCHAIN_ID = /^0x[0-9a-fA-F]{64}$/;

function out(reservation: ReservationRecord): ReservationInfo {
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

function notPending(reservation: ReservationRecord): AdminRefusal {
  return new AdminRefusal(
    "reservation-not-pending",
    `reservation ${reservation.hubOrderId} is ${reservation.state}: only a forwarding or unknown reservation is reconciled`,
  );
}

const notFound = (hubOrderId: string) =>
  new AdminRefusal("reservation-not-found", `no reservation ${hubOrderId}`);

/** The reservation rules of `hub admin reservations` and the dashboard, on the hub's reservation book. */
export function createReservationAdmin(deps: { book: ReservationBook; clock: Clock }): ReservationAdmin {
  const { book } = deps;
  return {
    async listReservations({ state, orgId, limit }) {
      const reservations = await book.list({
        ...(state !== undefined ? { state } : {}),
        ...(orgId !== undefined ? { orgId } : {}),
        limit: limit ?? adminLimits.maxReservationPage,
      });
      return { reservations: reservations.map(out) };
    },

    async reconcileReservation({ hubOrderId, opened, note }) {
      const reservation = await book.find(hubOrderId);
      if (!reservation) throw notFound(hubOrderId);
      if (reservation.state !== "forwarding" && reservation.state !== "unknown")
        throw notPending(reservation);
      const recomputed = await book.recomputedOnchainOrderId(reservation.quoteId);
      const at = new Date(deps.clock.now());

      if (opened) {
        if (!ONCHAIN_ID.test(opened.onchainOrderId)) {
          throw new AdminRefusal(
            "invalid-onchain-order-id",
            `${opened.onchainOrderId} is not an on-chain order id (0x and 64 hex digits)`,
          );
        }
        const onchainOrderId = opened.onchainOrderId.toLowerCase();
        if (recomputed !== undefined && recomputed !== onchainOrderId) {
          throw new AdminRefusal(
            "onchain-order-id-mismatch",
            `the quote's recomputed on-chain id is ${recomputed}, not ${onchainOrderId}`,
          );
        }
        const chain = (await book.chainView(onchainOrderId)) ?? null;
        const result = await book.reconcile({
          hubOrderId,
          finding: {
            opened: true,
            onchainOrderId,
            source: recomputed === undefined ? "upstream" : "verified",
          },
          note,
          at,
        });
        if (result.kind === "not-found") throw notFound(hubOrderId);
        if (result.kind === "not-pending") throw notPending(result.reservation);
        if (result.kind === "onchain-id-taken") {
          throw new AdminRefusal(
            "onchain-order-id-taken",
            `${onchainOrderId} is already recorded for another submission`,
          );
        }
        return { reservation: out(result.reservation), chain };
      }

      const chain = recomputed === undefined ? null : ((await book.chainView(recomputed)) ?? null);
      if (chain !== null) {
        throw new AdminRefusal(
          "opened-on-chain",
          `the chain shows ${recomputed} (${chain.status}): it opened; reconcile with --opened ${recomputed}`,
        );
      }
      const result = await book.reconcile({ hubOrderId, finding: { opened: false }, note, at });
      if (result.kind === "not-found") throw notFound(hubOrderId);
      if (result.kind !== "done")
        throw notPending((result as { reservation: ReservationRecord }).reservation);
      return { reservation: out(result.reservation), chain };
    },
  };
}
