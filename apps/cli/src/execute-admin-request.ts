import type { Admin } from "@hub/admin";
import type { AdminRequest } from "./admin-request.js";

/** The JSON object an admin verb answers with (the CLI's `--json` output). */
export type AdminResult = Record<string, unknown>;

/** Runs one admin verb on the admin module; its refusals are AdminRefusals. */
export async function executeAdminRequest(admin: Admin, request: AdminRequest): Promise<AdminResult> {
  switch (request.verb) {
    case "org.create":
      return admin.createOrganization({ name: request.name });
    case "org.list":
      return { ...(await admin.listOrganizations({ limit: request.limit, after: request.after })) };
    case "org.show":
      return admin.showOrganization({ orgId: request.orgId });
    case "org.disable":
    case "org.enable": {
      const { orgId } = request;
      return {
        orgId,
        ...(await admin.setOrganizationDisabled({ orgId, disabled: request.verb === "org.disable" })),
      };
    }
    case "project.create":
      return admin.createProject({ orgId: request.orgId, origins: request.origins });
    case "project.origins":
      return admin.setProjectOrigins({ projectId: request.projectId, origins: request.origins });
    case "project.show":
      return admin.showProject({ projectId: request.projectId });
    case "key.create":
      return admin.createKey({
        orgId: request.orgId,
        expiresInSeconds: request.expiresInSeconds,
        ...(request.label !== undefined ? { label: request.label } : {}),
      });
    case "key.revoke":
      return admin.revokeKey({ keyId: request.keyId });
    case "key.disable":
    case "key.enable":
      return admin.setKeyDisabled({ keyId: request.keyId, disabled: request.verb === "key.disable" });
    case "key.list":
      return admin.listKeys({ orgId: request.orgId });
    case "member.invite":
      return admin.inviteMember({ orgId: request.orgId, email: request.email });
    case "member.list":
      return { orgId: request.orgId, ...(await admin.listMembers({ orgId: request.orgId })) };
    case "member.remove":
      return admin.removeMember({ orgId: request.orgId, email: request.email });
    case "operator.invite":
      return admin.inviteOperator({ email: request.email });
    case "reservations.list":
      return admin.listReservations({ state: request.state, orgId: request.orgId });
    case "reservations.reconcile":
      return admin.reconcileReservation({
        hubOrderId: request.hubOrderId,
        opened: request.opened === null ? false : { onchainOrderId: request.opened },
        note: request.note,
      });
    case "usage":
      return { ...(await admin.usage({ orgId: request.orgId, hours: request.hours })) };
    case "chain.reindex":
      return admin.reindexChain({ chainDomain: request.chainDomain, fromBlock: request.fromBlock });
    case "audit.list":
      return {
        ...(await admin.listAuditLog({ orgId: request.orgId, limit: request.limit, after: request.after })),
      };
  }
}
