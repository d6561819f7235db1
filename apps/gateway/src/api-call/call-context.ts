import type { Pool } from "../create-pool-admission.js";
import type { CallRouteKind, KeyUse, UsageCredentialKind } from "../create-usage-tally.js";

/** One call's state, from its arrival to its metrics and usage. */
export interface CallContext {
  readonly requestId: string;
  readonly ip: string;
  status: number;
  operation: string;
  /** Headers every answer to this call carries: CORS on project-id calls, RateLimit once a credential is accepted. */
  readonly headers: Record<string, string>;
  reachedHub: boolean;
  /** Set once the organization is known; the call then counts in its usage. */
  orgId: string | undefined;
  credentialKind: UsageCredentialKind;
  /** The matched route's kind; '' until a route is matched. */
  routeKind: CallRouteKind;
  /** Set once an API key is accepted; the call then counts in the key's usage too. */
  keyUse: KeyUse | undefined;
  /** The rate pools the accepted credential's calls are admitted by; none until then. */
  pools: readonly Pool[];
  /** The answer's error code, '' for a success: the usage counters' code. */
  answerCode: string;
}
