import { matchRoute, type RouteMatch } from "@hub/contract";

/** The route a call's method and path (below /v1) name, with its path parameters, if any. */
export function matchApiRoute(method: string | undefined, apiPath: string): RouteMatch | undefined {
  try {
    return matchRoute(method ?? "", apiPath);
  } catch {
    return undefined; // a path parameter that is not valid percent-encoding names no route
  }
}
