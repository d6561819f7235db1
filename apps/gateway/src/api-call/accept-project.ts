import type { ProjectCheck } from "../create-credential-resolver.js";
import type { ApiCallState } from "./api-call-state.js";
import type { CallContext } from "./call-context.js";

/**
 * The call goes on as its accepted project's: its organization and pools, unless its origin is not
 * one the project allows (EPX0010).
 */
export function acceptProject(
  state: ApiCallState,
  call: CallContext,
  check: Extract<ProjectCheck, { ok: true }>,
  origin: string | undefined,
): "EPX0010" | undefined {
  call.orgId = check.orgId;
  call.credentialKind = "project_id";
  if (origin !== undefined && !check.allowedOrigins.has(origin)) return "EPX0010";
  call.pools = state.admission.ofProject(check.projectId, call.ip);
  return undefined;
}
