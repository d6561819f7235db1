import type { UsageRouteKind } from "../usage-route-kind.js";

/** How a call identified its organization. */
export type UsageCredentialKind = "api_key" | "project_id";

/**
 * What a call was for: 'read' (a route the hub charges to no bucket), 'quote' or 'order' (the hub's
 * two buckets); '' when the route was not read (a lockout).
 */
export type CallRouteKind = "" | "read" | "quote" | "order";

/** One call's API key and what it was for: the API keys page counts calls per key and route kind. */
export interface KeyUse {
  readonly keyId: string;
  readonly routeKind: UsageRouteKind;
}

/** What the tally writes to (@hub/store's UsageStore has it): adds counts to the stored ones, in one write. */
export interface UsageWriter {
  addUsage(
    counts: readonly {
      orgId: string;
      minute: Date;
      credentialKind: UsageCredentialKind;
      routeKind: CallRouteKind;
      code: string;
      count: number;
    }[],
    keyCounts: readonly {
      orgId: string;
      keyId: string;
      minute: Date;
      routeKind: UsageRouteKind;
      count: number;
    }[],
  ): Promise<void>;
}
