import { AdminRefusal, type ReservationInfo } from "@hub/admin";
import {
  type DashboardContext,
  type DashboardFastify,
  formOf,
  keepOnce,
  requireRole,
  seeOther,
  sendPage,
  takeOnce,
} from "../http/dashboard-context.js";
import { signedInPage } from "../pages/layout.js";
import {
  type InviteMessage,
  organizationBody,
  organizationsBody,
  type ReconcileErrors,
  reservationsBody,
} from "../pages/operator-pages.js";

/** The operators' pages: organizations (list, create, open, invite a member) and the reservations to reconcile. */
export function registerOperatorRoutes(app: DashboardFastify, context: DashboardContext): void {
  app.get("/organizations", async (request, reply) => {
    const viewer = requireRole(request, reply, "operator");
    if (!viewer) return reply;
    const after = (request.query as Record<string, string>).after;
    const page = await context
      .adminFor(viewer)
      .listOrganizations({ limit: 100, ...(after ? { after } : {}) });
    return sendPage(
      reply,
      signedInPage({ title: "Organizations", viewer, current: "/organizations" }, organizationsBody(page)),
    );
  });

  app.post("/organizations", async (request, reply) => {
    const viewer = requireRole(request, reply, "operator");
    if (!viewer) return reply;
    const admin = context.adminFor(viewer);
    const name = formOf(request).name ?? "";
    try {
      const { organization } = await admin.createOrganization({ name });
      await admin.createProject({ orgId: organization.orgId, origins: [] });
      return seeOther(reply, `/organizations/${organization.orgId}`);
    } catch (error) {
      if (!(error instanceof AdminRefusal) || error.code !== "invalid-argument") throw error;
      const page = await admin.listOrganizations({ limit: 100 });
      return sendPage(
        reply,
        signedInPage(
          { title: "Organizations", viewer, current: "/organizations" },
          organizationsBody({
            ...page,
            value: name,
            error: "Give the organization a name of 1 to 200 characters.",
          }),
        ),
        400,
      );
    }
  });

  const organizationPage = async (orgId: string, viewer: NonNullable<ReturnType<typeof requireRole>>) => {
    const admin = context.adminFor(viewer);
    try {
      const [{ organization, project }, { apiKeys }] = await Promise.all([
        admin.showOrganization({ orgId }),
        admin.listKeys({ orgId }),
      ]);
      return { organization, project, keys: apiKeys };
    } catch (error) {
      if (error instanceof AdminRefusal && error.code === "organization-not-found") return undefined;
      throw error;
    }
  };

  app.get<{ Params: { orgId: string } }>("/organizations/:orgId", async (request, reply) => {
    const viewer = requireRole(request, reply, "operator");
    if (!viewer) return reply;
    const found = await organizationPage(request.params.orgId, viewer);
    if (!found) return reply.callNotFound();
    const once = takeOnce(context, request, reply, viewer) as InviteMessage | undefined;
    const invited = once?.kind === "invite" ? once : undefined;
    return sendPage(
      reply,
      signedInPage(
        { title: found.organization.name, viewer, current: "/organizations" },
        organizationBody({ ...found, invited }),
      ),
    );
  });

  app.post<{ Params: { orgId: string } }>("/organizations/:orgId/invites", async (request, reply) => {
    const viewer = requireRole(request, reply, "operator");
    if (!viewer) return reply;
    const email = formOf(request).email ?? "";
    try {
      const { invite } = await context.adminFor(viewer).inviteMember({ orgId: request.params.orgId, email });
      const message: InviteMessage = {
        kind: "invite",
        email: invite.email,
        link: `${context.publicOrigin()}/sign-in/${invite.token}`,
        expiresAt: invite.expiresAt,
      };
      keepOnce(context, reply, viewer, message);
      return seeOther(reply, `/organizations/${request.params.orgId}`);
    } catch (error) {
      if (!(error instanceof AdminRefusal)) throw error;
      if (error.code === "organization-not-found") return reply.callNotFound();
      const found = await organizationPage(request.params.orgId, viewer);
      if (!found) return reply.callNotFound();
      const message =
        error.code === "invalid-email"
          ? "Enter an email address, like name@example.com."
          : `${error.message}.`;
      return sendPage(
        reply,
        signedInPage(
          { title: found.organization.name, viewer, current: "/organizations" },
          organizationBody({ ...found, email, error: message }),
        ),
        400,
      );
    }
  });

  const pending = async (
    viewer: NonNullable<ReturnType<typeof requireRole>>,
  ): Promise<ReservationInfo[] | null> => {
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
  };

  app.get("/reservations", async (request, reply) => {
    const viewer = requireRole(request, reply, "operator");
    if (!viewer) return reply;
    const notice = takeOnce(context, request, reply, viewer) as { kind: string; text: string } | undefined;
    return sendPage(
      reply,
      signedInPage(
        { title: "Reservations", viewer, current: "/reservations" },
        reservationsBody({
          reservations: await pending(viewer),
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
              reservations: await pending(viewer),
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
