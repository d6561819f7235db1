import { createProxyTrust, type ProxyTrust } from "../client-address.js";
import { createDeadlines, type Deadlines } from "../create-deadlines.js";
import { createPoolAdmission, type PoolAdmission } from "../create-pool-admission.js";
import type { ApiCallHandlerDeps } from "./api-call-handler-deps.js";

/** What every call of the handler shares: its dependencies and the state made once for all calls. */
export interface ApiCallState extends ApiCallHandlerDeps {
  readonly deadlines: Deadlines;
  readonly admission: PoolAdmission;
  readonly trust: ProxyTrust | undefined;
  /**
   * Lockout keys made once per address, not per call: a kept string keeps its hash for the counters'
   * map. The map is emptied whenever it reaches its cap.
   */
  readonly lockoutKeys: Map<string, string>;
}

export function createApiCallState(deps: ApiCallHandlerDeps): ApiCallState {
  const { config, counters } = deps;
  return {
    ...deps,
    deadlines: createDeadlines(),
    admission: createPoolAdmission(config, counters),
    trust: config.trustedProxies.length > 0 ? createProxyTrust(config.trustedProxies) : undefined,
    lockoutKeys: new Map(),
  };
}
