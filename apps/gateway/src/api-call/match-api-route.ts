import { matchRoute, type RouteDefinition } from "@hub/contract";

/** The route a call's method and path (below /v1) name, if any. */
export function matchApiRoute(method: string | undefined, apiPath: string): RouteDefinition | undefined {
  try {
    return matchRoute(method ?? "", apiPath)?.route;
  } catch {
    return undefined; // a path parameter that is not valid percent-encoding names no route
  }
}
