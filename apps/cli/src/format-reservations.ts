import type { ReservationInfo } from "@hub/admin";
import type { AdminRequest } from "./admin-request.js";
import type { AdminResult } from "./execute-admin-request.js";

function reservationLine(r: ReservationInfo): string {
  const last = r.lastCode ? `  last ${r.lastCode}${r.lastDetail ? ` (${r.lastDetail})` : ""}` : "";
  return `${r.hubOrderId}  ${r.state.padEnd(10)}  attempt ${r.attempt}  ${r.orgId}  ${r.subject}  quote ${r.quoteId}  reserved ${r.reservedAt}${r.onchainOrderId ? `  onchain ${r.onchainOrderId}` : ""}${last}`;
}

/** The readable rendering of a reservations verb's result (without --json). */
export function formatReservations(
  request: Extract<AdminRequest, { verb: "reservations.list" | "reservations.reconcile" }>,
  result: AdminResult,
): string {
  if (request.verb === "reservations.list") {
    const reservations = result.reservations as ReservationInfo[];
    return reservations.length === 0 ? "no reservations" : reservations.map(reservationLine).join("\n");
  }
  const reservation = result.reservation as ReservationInfo;
  const chain = result.chain as { status: string } | null;
  return [
    `reconciled: ${reservation.state === "acked" ? `opened as ${reservation.onchainOrderId}` : "released, the next re-post forwards again"}`,
    reservationLine(reservation),
    `chain facts: ${chain ? chain.status : "none recorded"}`,
  ].join("\n");
}
