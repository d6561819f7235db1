import type { IncomingMessage } from "node:http";
import { parseCredential } from "../parse-credential.js";
import type { ApiCallState } from "./api-call-state.js";
import type { CallContext } from "./call-context.js";

/** A locked-out call counts for the organization its credential names, when the cache knows it. */
export async function identifyLockedOut(
  state: ApiCallState,
  call: CallContext,
  headers: IncomingMessage["headers"],
): Promise<void> {
  const parsed = parseCredential(headers);
  if (!parsed.ok) return;
  call.orgId = await state.credentials.cachedOrganization(parsed);
  call.credentialKind = parsed.kind === "key" ? "api_key" : "project_id";
}
