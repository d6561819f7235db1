import { type RpcFaults, rpcFaultsSchema } from "./rpc-faults.js";

export interface RpcFaultProxyStats {
  /** JSON-RPC calls received (a batch counts each call), by method. */
  calls: Record<string, number>;
  /** Calls answered with a fault, by kind (rate-limited, range, reset, unavailable). */
  faults: Record<string, number>;
}

/** What the proxy's request handling shares: the node, the faults set, and what it counted. */
export interface RpcFaultProxyState {
  /** The node's JSON-RPC URL. */
  readonly target: string;
  faults: RpcFaults;
  /** Calls refused by rateLimit since the faults were set. */
  rateLimited: number;
  /** Requests seen since the faults were set (resetEvery counts them). */
  seen: number;
  stats: RpcFaultProxyStats;
}

export function createRpcFaultProxyState(target: string, faults: RpcFaults | undefined): RpcFaultProxyState {
  return {
    target,
    faults: rpcFaultsSchema.parse(faults ?? {}),
    rateLimited: 0,
    seen: 0,
    stats: { calls: {}, faults: {} },
  };
}

export function countFault(state: RpcFaultProxyState, kind: string): void {
  state.stats.faults[kind] = (state.stats.faults[kind] ?? 0) + 1;
}
