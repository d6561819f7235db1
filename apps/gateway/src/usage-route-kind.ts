import type { OperationId, RouteDefinition } from "@hub/contract";

/** What a call with an API key was for, as the API keys page counts it per key. */
export type UsageRouteKind = "quote" | "order" | "status" | "other";

/** Every route kind, in the order tables show them. */
export const usageRouteKinds: readonly UsageRouteKind[] = ["quote", "order", "status", "other"];

/** The reads of one order's state: the hub's status, the chain's view of its open, fill and refund. */
const STATUS_READS: ReadonlySet<OperationId> = new Set<OperationId>([
  "getOrderStatus",
  "getHubStatus",
  "getOnchainFill",
  "getOnchainRefund",
  "getOnchainOrder",
  "getOrderByTransaction",
]);

/** Quote routes and order submissions by the hub bucket they are charged to; status reads by name. */
export function usageRouteKind(route: Pick<RouteDefinition, "operationId" | "bucket">): UsageRouteKind {
  if (route.bucket === "quote") return "quote";
  if (route.bucket === "order") return "order";
  return STATUS_READS.has(route.operationId as OperationId) ? "status" : "other";
}
