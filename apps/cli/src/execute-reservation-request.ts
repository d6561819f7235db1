import type { ReservationAdmin } from "@hub/hub-app";
import type { AdminRequest } from "./admin-request.js";

/** The result of a reservations verb (the CLI's `--json` output). */
export type ReservationResult = Record<string, unknown>;

/** Runs `hub admin reservations list|reconcile`; refusals are ReservationRefusals. */
export async function executeReservationRequest(
  reservations: ReservationAdmin,
  request: Extract<AdminRequest, { verb: "reservations.list" | "reservations.reconcile" }>,
): Promise<ReservationResult> {
  if (request.verb === "reservations.list") {
    return {
      ...(await reservations.list({
        ...(request.state !== undefined ? { state: request.state } : {}),
        ...(request.orgId !== undefined ? { orgId: request.orgId } : {}),
      })),
    };
  }
  return {
    ...(await reservations.reconcile({
      hubOrderId: request.hubOrderId,
      opened: request.opened === null ? false : { onchainOrderId: request.opened },
      ...(request.note !== undefined ? { note: request.note } : {}),
    })),
  };
}
