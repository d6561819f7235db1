import type { AdminActionRecorder } from "../admin-action-recorder.js";
import type { ChainAdmin } from "../chain-admin.js";
import type { ReservationAdmin } from "../reservation-admin.js";

/** The operations on the hub's own state (a chain's reindex, a reservation's reconcile), each recorded. */
export function auditedOperationVerbs(
  chains: ChainAdmin,
  reservations: ReservationAdmin,
  record: AdminActionRecorder,
): ChainAdmin & Pick<ReservationAdmin, "reconcileReservation"> {
  return {
    async reindexChain(input) {
      const result = await chains.reindexChain(input);
      await record({
        action: "chain.reindex",
        orgId: null,
        target: input.chainDomain,
        detail: { fromBlock: input.fromBlock, factsRemoved: result.factsRemoved },
      });
      return result;
    },

    async reconcileReservation(input) {
      const result = await reservations.reconcileReservation(input);
      const { hubOrderId, orgId, state, onchainOrderId, reconciledNote } = result.reservation;
      await record({
        action: input.opened ? "reservation.mark-opened" : "reservation.mark-not-opened",
        orgId,
        target: hubOrderId,
        detail: { state, onchainOrderId, note: reconciledNote },
      });
      return result;
    },
  };
}
