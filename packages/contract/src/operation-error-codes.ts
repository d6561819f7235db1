import { type ErrorCode, errorCodes } from "./error-catalogue.js";
import { type OperationId, type RouteDefinition, routeTable } from "./route-table.js";

/**
 * Codes any call can meet: a body over the gateway's limit (EPX0005, on a GET too) or a request the HTTP
 * parser cannot read (a raw control character or non-ASCII byte in the path is EPX0006 whatever the
 * route), the gateway's hub failures, its lockout and the failure of its own checks (the lockout
 * counters are read before the route is known, so EPX0053 reaches the public route too), the hub's
 * internal error, its database out of reach (EIN0050) and its per-IP limiter.
 */
const EVERY_ROUTE: readonly ErrorCode[] = [
  "EPX0005",
  "EPX0006",
  "EPX0050",
  "EPX0051",
  "EPX0052",
  "EPX0053",
  "EPX0081",
  "EIN0049",
  "EIN0050",
  "EMC0005",
];
const CREDENTIAL: readonly ErrorCode[] = [
  "EPX0001",
  "EPX0002",
  "EPX0007",
  "EPX0008",
  "EPX0009",
  "EPX0010",
  "EPX0080",
  "EPX0082",
];
const BODY: readonly ErrorCode[] = ["EMC0028", "EIN0001"];

/** The route table's line for an operation id. */
export function routeOf(operationId: OperationId): RouteDefinition {
  const route = routeTable.find((candidate) => candidate.operationId === operationId);
  if (!route) throw new Error(`no route ${operationId}`);
  return route;
}

/**
 * Every code a route can answer: those that follow from its route-table line (credential, body,
 * subject, bucket) plus the route's own hub codes, in catalogue order.
 */
export function operationErrorCodes(operationId: OperationId, routeCodes: readonly ErrorCode[]): ErrorCode[] {
  const route = routeOf(operationId);
  const codes = new Set<ErrorCode>([
    ...EVERY_ROUTE,
    ...routeCodes,
    ...(route.access === "public" ? [] : CREDENTIAL),
    ...(route.readsBody ? BODY : []),
  ]);
  if (route.access === "key-only") codes.add("EPX0003");
  if (route.subjectRequired) codes.add("EIN0001");
  // A bucket sheds past its size (EIN0080), and sheds when the shared counters cannot answer (EIN0081).
  if (route.bucket) {
    codes.add("EIN0080");
    codes.add("EIN0081");
  }
  return errorCodes.filter((code) => codes.has(code));
}
