import { AdminRefusal, type ReservationInfo } from "@hub/admin";
import type { Viewer } from "../../auth/viewer.js";
import {
  type DashboardContext,
  type DashboardFastify,
  formOf,
  keepOnce,
  requireRole,
  seeOther,
  sendPage,
  takeOnce,
} from "../../http/dashboard-context.js";
import { signedInPage } from "../../pages/layout.js";
import { type ReconcileErrors, reservationsBody } from "../../pages/operator-pages.js";

/** The reservations to reconcile (forwarding or unknown), oldest first; null when the hub's book fails. */
async function pendingReservations(
  context: DashboardContext,
  viewer: Viewer,
): Promise<ReservationInfo[] | null> {
  const admin = context.adminFor(viewer);
  try {
    const [forwarding, unknown] = await Promise.all([
      admin.listReservations({ state: "forwarding" }),
      admin.listReservations({ state: "unknown" }),
    ]);
    return [...forwarding.reservations, ...unknown.reservations].sort((a, b) =>
      a.reservedAt.localeCompare(b.reservedAt),
    );
  } catch (error) {
    if (error instanceof AdminRefusal) throw error;
    return null;
  }
}

/** The operators' Reservations page: each one marked opened (with its onchain id) or not opened. */
export function registerReservationsRoutes(app: DashboardFastify, context: DashboardContext): void {
  app.get("/reservations", async (request, reply) => {
    const viewer = requireRole(request, reply, "operator");
    if (!viewer) return reply;
    const notice = takeOnce(context, request, reply, viewer) as { kind: string; text: string } | undefined;
    return sendPage(
      reply,
      signedInPage(
        { title: "Reservations", viewer, current: "/reservations" },
        reservationsBody({
          reservations: await pendingReservations(context, viewer),
          ...(notice?.kind === "notice" ? { notice: notice.text } : {}),
        }),
      ),
    );
  });

  for (const outcome of ["opened", "not-opened"] as const) {
    app.post(`/reservations/${outcome}`, async (request, reply) => {
      const viewer = requireRole(request, reply, "operator");
      if (!viewer) return reply;
      const form = formOf(request);
      const hubOrderId = form.hubOrderId ?? "";
      const field = outcome === "opened" ? "onchainOrderId" : "note";
      const value = form[field] ?? "";
      try {
        const { reservation } = await context.adminFor(viewer).reconcileReservation({
          hubOrderId,
          opened: outcome === "opened" ? { onchainOrderId: value.trim() } : false,
          ...(outcome === "not-opened" && value.trim() !== "" ? { note: value.trim().slice(0, 1000) } : {}),
        });
        keepOnce(context, reply, viewer, {
          kind: "notice",
          text: `${reservation.hubOrderId} is now ${reservation.state}.`,
        });
        return seeOther(reply, "/reservations");
      } catch (error) {
        if (!(error instanceof AdminRefusal)) throw error;
        const errors: ReconcileErrors = { [hubOrderId]: { field, message: `${error.message}.` } };
        return sendPage(
          reply,
          signedInPage(
            { title: "Reservations", viewer, current: "/reservations" },
            reservationsBody({
              reservations: await pendingReservations(context, viewer),
              errors,
              values: { [hubOrderId]: value },
            }),
          ),
          400,
        );
      }
    });
  }
}
