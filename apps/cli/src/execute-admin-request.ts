import { AccessError, type AccessService } from "@hub/access";
import type { ReservationAdmin } from "@hub/hub-app";
import type { AdminRequest } from "./admin-request.js";
import { executeReservationRequest } from "./execute-reservation-request.js";

/** The JSON object an admin verb answers with (the CLI's `--json` output). */
export type AdminResult = Record<string, unknown>;

/** Runs one admin verb against the access service or the reservations; refusals are AccessErrors or ReservationRefusals. */
export async function executeAdminRequest(
  access: AccessService,
  request: AdminRequest,
  reservations?: ReservationAdmin,
): Promise<AdminResult> {
  switch (request.verb) {
    case "org.create":
      return { organization: await access.createOrganization(request.name) };
    case "org.list":
      return access.listOrganizations({
        ...(request.limit !== undefined ? { limit: request.limit } : {}),
        ...(request.after !== undefined ? { after: request.after } : {}),
      });
    case "org.show": {
      const organization = await access.getOrganization(request.orgId);
      if (!organization) {
        throw new AccessError("organization-not-found", `organization ${request.orgId} does not exist`);
      }
      const project = organization.projectId ? await access.getProject(organization.projectId) : undefined;
      return { organization, project: project ?? null };
    }
    case "project.create":
      return { project: await access.createProject(request.orgId, request.origins) };
    case "project.origins":
      return { project: await access.setProjectOrigins(request.projectId, request.origins) };
    case "project.show": {
      const project = await access.getProject(request.projectId);
      if (!project) throw new AccessError("project-not-found", `project ${request.projectId} does not exist`);
      return { project };
    }
    case "key.create":
      return {
        apiKey: await access.createApiKey(
          request.orgId,
          request.expiresInSeconds !== undefined ? { expiresInSeconds: request.expiresInSeconds } : {},
        ),
      };
    case "key.revoke":
      return { apiKey: await access.revokeApiKey(request.keyId) };
    case "key.list":
      return { orgId: request.orgId, apiKeys: await access.listApiKeys(request.orgId) };
    case "reservations.list":
    case "reservations.reconcile":
      if (!reservations) throw new Error("this service does not serve the reservation verbs");
      return executeReservationRequest(reservations, request);
  }
}
