import type { RouteDefinition } from "@hub/contract";
import type { KeyCheck } from "../create-credential-resolver.js";
import { usageRouteKind } from "../usage-route-kind.js";
import type { ApiCallState } from "./api-call-state.js";
import type { CallContext } from "./call-context.js";

/** The call goes on as its accepted API key's: its organization, usage and pools. */
export function acceptKey(
  state: ApiCallState,
  call: CallContext,
  check: Extract<KeyCheck, { ok: true }>,
  route: RouteDefinition,
): void {
  call.orgId = check.orgId;
  call.credentialKind = "api_key";
  if (state.usage !== undefined) call.keyUse = { keyId: check.keyId, routeKind: usageRouteKind(route) };
  call.pools = state.admission.ofOrganization(check.orgId);
}
