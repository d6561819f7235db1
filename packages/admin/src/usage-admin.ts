import type { Clock } from "@hub/clock";
import type { AccessStore, CallRouteKind, KeyRouteKind, UsageHourCount, UsageStore } from "@hub/store";
import { adminLimits } from "./admin-limits.js";
import { AdminRefusal } from "./admin-refusal.js";

/** Calls by how they identified the organization. */
export interface RequestsByKind {
  apiKey: number;
  projectId: number;
}

/** What the project id's calls did at the project's pool in one hour. */
export interface ProjectPoolUse {
  /** Calls the gateway's pools let through to the hub, by what they were for. */
  admitted: { reads: number; quotes: number; orders: number };
  /** EPX0080: the project's pool (all its visitors together) was spent. */
  poolRefusals: number;
  /** EPX0082: one visitor address's bucket was spent; the project's pool was not charged. */
  visitorRefusals: number;
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
  projectPool: ProjectPoolUse;
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

/** Calls with one key by route kind: quotes, order submissions, status reads, the rest. */
export type CallsByRouteKind = Record<KeyRouteKind, number>;

/** One key's calls per UTC day, as the gateways counted them once they accepted the key. */
export interface KeyUsage {
  keyId: string;
  /** One entry per day of the window, oldest first, zeros included. */
  days: ({ day: string } & CallsByRouteKind)[];
  totals: CallsByRouteKind;
}

export interface OrganizationKeyUsage {
  orgId: string;
  /** The first and last UTC day (`YYYY-MM-DD`); the last is today, so far. */
  from: string;
  to: string;
  /** Every UTC day of the window, oldest first. */
  days: string[];
  /** The keys with calls in the window, in key id order; a key without calls is not listed. */
  keys: KeyUsage[];
}

export interface UsageAdmin {
  /** The organization's calls per hour over the last `hours` hours (24 by default), the current hour last. */
  usage(input: { orgId: string; hours?: number }): Promise<OrganizationUsage>;
  /** Each key's calls per UTC day over the last `days` days (30 by default), today last. */
  keyUsage(input: { orgId: string; days?: number }): Promise<OrganizationKeyUsage>;
}

/** The route kinds in the order pages and tables show them. */
export const keyRouteKinds: readonly KeyRouteKind[] = ["quote", "order", "status", "other"];

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const LOCKOUT_CODE = "EPX0081";
/** The gateway's own codes for a call its pools let through: the hub was unreachable, failing or slow. */
const AFTER_POOL_CODES = new Set(["EPX0050", "EPX0051", "EPX0052"]);

/** Whether a call answered with `code` passed the gateway's checks, pools included: every hub answer did. */
function admitted(code: string): boolean {
  return code === "" || !code.startsWith("EPX") || AFTER_POOL_CODES.has(code);
}

function emptyHour(): Omit<UsageHour, "hour"> {
  return {
    requests: { apiKey: 0, projectId: 0 },
    refusals: {},
    lockouts: 0,
    projectPool: { admitted: { reads: 0, quotes: 0, orders: 0 }, poolRefusals: 0, visitorRefusals: 0 },
  };
}

function addPoolUse(into: ProjectPoolUse, route: CallRouteKind, code: string, count: number) {
  if (code === "EPX0080") into.poolRefusals += count;
  else if (code === "EPX0082") into.visitorRefusals += count;
  else if (admitted(code)) {
    if (route === "read") into.admitted.reads += count;
    else if (route === "quote") into.admitted.quotes += count;
    else if (route === "order") into.admitted.orders += count;
  }
}

function add(into: Omit<UsageHour, "hour">, count: UsageHourCount) {
  const { credentialKind: kind, code } = count;
  if (kind === "api_key") into.requests.apiKey += count.count;
  else {
    into.requests.projectId += count.count;
    addPoolUse(into.projectPool, count.routeKind, code, count.count);
  }
  if (code === "") return;
  into.refusals[code] = (into.refusals[code] ?? 0) + count.count;
  if (code === LOCKOUT_CODE) into.lockouts += count.count;
}

const noCalls = (): CallsByRouteKind => ({ quote: 0, order: 0, status: 0, other: 0 });

export function createUsageAdmin(deps: { access: AccessStore; usage: UsageStore; clock: Clock }): UsageAdmin {
  const requireOrganization = async (orgId: string) => {
    if (!(await deps.access.getOrganization(orgId))) {
      throw new AdminRefusal("organization-not-found", `organization ${orgId} does not exist`);
    }
  };
  return {
    async keyUsage({ orgId, days = adminLimits.maxKeyUsageDays }) {
      if (!Number.isInteger(days) || days < 1 || days > adminLimits.maxKeyUsageDays) {
        throw new AdminRefusal(
          "invalid-argument",
          `key usage covers 1 to ${adminLimits.maxKeyUsageDays} days`,
        );
      }
      await requireOrganization(orgId);
      const todayMs = Math.floor(deps.clock.now() / DAY_MS) * DAY_MS;
      const window = Array.from({ length: days }, (_, i) =>
        new Date(todayMs - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10),
      );
      const from = window[0] as string;
      const to = window[days - 1] as string;
      const counts = await deps.usage.readKeyUsageByDay({ orgId, from, to });
      const keys = new Map<string, KeyUsage>();
      for (const count of counts) {
        let key = keys.get(count.keyId);
        if (key === undefined) {
          key = { keyId: count.keyId, days: window.map((day) => ({ day, ...noCalls() })), totals: noCalls() };
          keys.set(count.keyId, key);
        }
        const day = key.days[window.indexOf(count.day)];
        if (day === undefined) continue;
        day[count.routeKind] += count.count;
        key.totals[count.routeKind] += count.count;
      }
      return { orgId, from, to, days: window, keys: [...keys.values()] };
    },

    async usage({ orgId, hours = 24 }) {
      if (!Number.isInteger(hours) || hours < 1 || hours > adminLimits.maxUsageHours) {
        throw new AdminRefusal("invalid-argument", `usage covers 1 to ${adminLimits.maxUsageHours} hours`);
      }
      await requireOrganization(orgId);
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
        add(hour, count);
        add(totals, count);
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
