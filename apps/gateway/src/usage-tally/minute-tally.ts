import type { CallRouteKind, UsageCredentialKind } from "./usage-writer.js";

export const MINUTE_MS = 60_000;

export const ROUTE_KINDS: readonly CallRouteKind[] = ["", "read", "quote", "order"];
const ROUTE_INDEX: Record<CallRouteKind, number> = { "": 0, read: 1, quote: 2, order: 3 };
export const CREDENTIAL_KINDS: readonly UsageCredentialKind[] = ["api_key", "project_id"];

export interface KindTally {
  successes: number;
  refusals: Map<string, number> | undefined;
}

export interface OrganizationTally {
  /** One KindTally per credential kind and route kind, at tallyIndex(credential, route). */
  readonly kinds: readonly KindTally[];
  /** Per key id, calls per route kind in usageRouteKinds' order. */
  keys: Map<string, number[]> | undefined;
}

/** One minute's counts, by organization. */
export type MinuteTally = Map<string, OrganizationTally>;

export function tallyIndex(kind: UsageCredentialKind, route: CallRouteKind): number {
  return (kind === "api_key" ? 0 : ROUTE_KINDS.length) + ROUTE_INDEX[route];
}
