import type {
  ApiKeyInfo,
  AuditLogPage,
  CreatedApiKey,
  DashboardInvite,
  Organization,
  OrganizationUsage,
  Project,
} from "@hub/admin";
import type { AdminRequest } from "./admin-request.js";
import type { AdminResult } from "./execute-admin-request.js";
import { formatAuditLog } from "./format-audit-log.js";
import { formatReservations } from "./format-reservations.js";
import { formatTeamResult } from "./format-team-result.js";
import { formatUsage } from "./format-usage.js";

function organizationLines(organization: Organization): string[] {
  return [
    `organization ${organization.orgId}`,
    `  name      ${organization.name}`,
    `  created   ${organization.createdAt}`,
    `  project   ${organization.projectId ?? "(none)"}`,
  ];
}

function projectLines(project: Project): string[] {
  return [
    `project ${project.projectId}`,
    `  org       ${project.orgId}`,
    `  created   ${project.createdAt}`,
    `  origins   ${project.allowedOrigins.length > 0 ? project.allowedOrigins.join(" ") : "(none: no web page may use it)"}`,
  ];
}

function keyLine(key: ApiKeyInfo): string {
  const state =
    key.status === "revoked"
      ? `revoked ${key.revokedAt}`
      : key.status === "expired"
        ? `expired ${key.expiresAt}`
        : `${key.status === "disabled" ? `disabled ${key.disabledAt}` : "active"}, ${key.expiresAt ? `expires ${key.expiresAt}` : "no expiry"}`;
  return `${key.keyId}  ${key.displayPrefix}…  ${state}${key.label ? `  "${key.label}"` : ""}  created ${key.createdAt}  last used ${key.lastUsedAt ?? "never"}`;
}

/** The readable rendering of an admin verb's result (without --json). */
export function formatAdminResult(request: AdminRequest, result: AdminResult): string {
  switch (request.verb) {
    case "org.create":
      return ["created", ...organizationLines(result.organization as Organization)].join("\n");
    case "org.show": {
      const project = result.project as Project | null;
      return [
        ...organizationLines(result.organization as Organization),
        ...(project ? projectLines(project) : []),
      ].join("\n");
    }
    case "org.list": {
      const organizations = result.organizations as Organization[];
      if (organizations.length === 0) return "no organizations";
      const lines = organizations.map(
        (o) => `${o.orgId}  ${o.projectId ?? "(no project)".padEnd(29)}  ${o.createdAt}  ${o.name}`,
      );
      if (result.next) lines.push(`more: hub admin org list --after ${result.next}`);
      return lines.join("\n");
    }
    case "org.disable":
    case "org.enable":
    case "member.list":
    case "member.remove":
      return formatTeamResult(request, result);
    case "project.create":
      return ["created", ...projectLines(result.project as Project)].join("\n");
    case "project.origins":
      return ["origins replaced", ...projectLines(result.project as Project)].join("\n");
    case "project.show":
      return projectLines(result.project as Project).join("\n");
    case "key.create": {
      const key = result.apiKey as CreatedApiKey;
      return [
        `created key ${key.keyId} for ${key.orgId}, ${key.expiresAt ? `expires ${key.expiresAt}` : "no expiry"}`,
        "",
        `  ${key.key}`,
        "",
        "This is the only time the key is shown; it is stored only as its SHA-256. Keep it now.",
      ].join("\n");
    }
    case "key.revoke":
      return `revoked ${keyLine(result.apiKey as ApiKeyInfo)}`;
    case "key.disable":
    case "key.enable": {
      const done = request.verb === "key.disable" ? "disabled" : "enabled";
      return `${result.changed ? done : `already ${done}`} ${keyLine(result.apiKey as ApiKeyInfo)}`;
    }
    case "key.list": {
      const keys = result.apiKeys as ApiKeyInfo[];
      return keys.length === 0 ? `no keys for ${result.orgId}` : keys.map(keyLine).join("\n");
    }
    case "member.invite":
    case "operator.invite": {
      const invite = result.invite as DashboardInvite;
      return [
        `${invite.role === "operator" ? "operator" : `member of ${invite.orgId}`} ${invite.email}: one-time sign-in link, valid until ${invite.expiresAt}`,
        "",
        `  ${result.link as string}`,
        "",
        "It works once; send it to that person only. A new invite makes a new link.",
      ].join("\n");
    }
    case "reservations.list":
    case "reservations.reconcile":
      return formatReservations(request, result);
    case "usage":
      return formatUsage(result as unknown as OrganizationUsage);
    case "audit.list":
      return formatAuditLog(result as unknown as AuditLogPage);
    case "chain.reindex":
      return `${String(result.chainDomain)} re-indexed from block ${String(result.fromBlock)}: ${String(result.factsRemoved)} facts removed, ${String(result.claimsReleased)} deposit claims released; the reconciler reads the chain again from there`;
  }
}
