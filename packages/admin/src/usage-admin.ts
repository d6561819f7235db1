import type { Clock } from "@hub/clock";
import type { AccessStore, UsageStore } from "@hub/store";
import { adminLimits } from "./admin-limits.js";
import { AdminRefusal } from "./admin-refusal.js";

/** Calls by how they identified the organization. */
export interface RequestsByKind {
  apiKey: number;
  projectId: number;
}

/** One hour of an organization's calls, as the gateways counted them. */
export interface UsageHour {
  /** The hour's start (UTC). */
  hour: string;
  /** Every call the gateways could attribute to the organization, answered or refused. */
  requests: RequestsByKind;
  /** Refused calls by error code, the hub's codes included (EIN0080); EPX0081 is a lockout. */
  refusals: Record<string, number>;
  lockouts: number;
}

export interface OrganizationUsage {
  orgId: string;
  /** The first hour's start; the last hour is the current one, so far. */
  from: string;
  to: string;
  /** One entry per hour, oldest first, zeros included. */
  hours: UsageHour[];
  totals: Omit<UsageHour, "hour">;
}

export interface UsageAdmin {
  /** The organization's calls per hour over the last `hours` hours (24 by default), the current hour last. */
  usage(input: { orgId: string; hours?: number }): Promise<OrganizationUsage>;
}

const HOUR_MS = 3_600_000;
const LOCKOUT_CODE = "EPX0081";

function emptyHour(): Omit<UsageHour, "hour"> {
  return { requests: { apiKey: 0, projectId: 0 }, refusals: {}, lockouts: 0 };
}

function add(into: Omit<UsageHour, "hour">, kind: "api_key" | "project_id", code: string, count: number) {
  if (kind === "api_key") into.requests.apiKey += count;
  else into.requests.projectId += count;
  if (code === "") return;
  into.refusals[code] = (into.refusals[code] ?? 0) + count;
  if (code === LOCKOUT_CODE) into.lockouts += count;
}

export function createUsageAdmin(deps: { access: AccessStore; usage: UsageStore; clock: Clock }): UsageAdmin {
  return {
    async usage({ orgId, hours = 24 }) {
      if (!Number.isInteger(hours) || hours < 1 || hours > adminLimits.maxUsageHours) {
        throw new AdminRefusal("invalid-argument", `usage covers 1 to ${adminLimits.maxUsageHours} hours`);
      }
      if (!(await deps.access.getOrganization(orgId))) {
        throw new AdminRefusal("organization-not-found", `organization ${orgId} does not exist`);
      }
      const toMs = (Math.floor(deps.clock.now() / HOUR_MS) + 1) * HOUR_MS;
      const fromMs = toMs - hours * HOUR_MS;
      const counts = await deps.usage.readUsageByHour({
        orgId,
        from: new Date(fromMs),
        to: new Date(toMs),
      });
      const perHour: UsageHour[] = [];
      for (let i = 0; i < hours; i += 1) {
        perHour.push({ hour: new Date(fromMs + i * HOUR_MS).toISOString(), ...emptyHour() });
      }
      const totals = emptyHour();
      for (const count of counts) {
        const hour = perHour[Math.floor((count.hour.getTime() - fromMs) / HOUR_MS)];
        if (!hour) continue;
        add(hour, count.credentialKind, count.code, count.count);
        add(totals, count.credentialKind, count.code, count.count);
      }
      return {
        orgId,
        from: new Date(fromMs).toISOString(),
        to: new Date(toMs).toISOString(),
        hours: perHour,
        totals,
      };
    },
  };
}
