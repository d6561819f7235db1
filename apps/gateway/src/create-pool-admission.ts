import type { RouteDefinition } from "@hub/contract";
import type { BucketRule, Counters, TakeResult } from "@hub/counters";
import { addressKey } from "./address-key.js";
import type { GatewayConfig } from "./gateway-config.js";
import { projectPoolRule } from "./project-pool-rule.js";

/** How many organizations' pool lists are kept at most; the map is emptied when it reaches it. */
const KEPT_ORGANIZATIONS = 10_000;

/** One token bucket a call takes from, and the code that answers when it is spent. */
export interface Pool {
  readonly key: string;
  readonly rule: BucketRule;
  readonly code: "EPX0080" | "EPX0082";
  /** Tokens a call to a route the hub charges to a bucket (quotes, submissions) takes here; others take 1. */
  readonly chargedRouteCost: number;
}

/** What a take from a credential's pools decided: the pool that refused, if one did, and its answer. */
export interface PoolTake {
  readonly refusedBy?: Pool;
  readonly result: TakeResult;
}

/**
 * The gateway's rate pools (spec, Limits): one per organization for its keys; one per project for its
 * project id plus a bucket per visitor address, taken first, so a visitor whose bucket refuses
 * (EPX0082) spends nothing of the project's pool.
 */
export interface PoolAdmission {
  ofOrganization(orgId: string): readonly Pool[];
  ofProject(projectId: string, ip: string): readonly Pool[];
  /**
   * Takes the route's cost from each pool in turn, stopping at the first that refuses; with `charge`
   * false it only reads them. The RateLimit headers are the tightest answer's. Counters in memory
   * answer at once, not through a promise.
   */
  take(
    headers: Record<string, string>,
    pools: readonly Pool[],
    route: RouteDefinition,
    charge: boolean,
  ): PoolTake | Promise<PoolTake>;
}

export function createPoolAdmission(config: GatewayConfig, counters: Counters): PoolAdmission {
  const projectPool =
    config.projectPool ??
    projectPoolRule(config.hubOrganizationBucket, config.projectShare, config.projectQuoteCost);
  // An organization's pool list is made once, not per call: the key string keeps its hash for the
  // counters' map.
  const organizationPools = new Map<string, readonly Pool[]>();

  /** The RateLimit headers are the tightest answer's: a refusal, or the fewest remaining, then the smaller limit. */
  function tighter(tightest: TakeResult | undefined, result: TakeResult): TakeResult {
    return !tightest ||
      !result.allowed ||
      result.remaining < tightest.remaining ||
      (result.remaining === tightest.remaining && result.limit < tightest.limit)
      ? result
      : tightest;
  }

  function setRateHeaders(headers: Record<string, string>, result: TakeResult): void {
    headers["ratelimit-limit"] = String(result.limit);
    headers["ratelimit-remaining"] = String(result.remaining);
    headers["ratelimit-reset"] = String(result.resetSeconds);
  }

  async function takeAfter(
    headers: Record<string, string>,
    pools: readonly Pool[],
    from: number,
    pending: Promise<TakeResult>,
    tightestBefore: TakeResult | undefined,
    route: RouteDefinition,
    charge: boolean,
  ): Promise<PoolTake> {
    let tightest = tightestBefore;
    for (let index = from; index < pools.length; index++) {
      const pool = pools[index] as Pool;
      const cost = !charge ? 0 : route.bucket !== undefined ? pool.chargedRouteCost : 1;
      const result = index === from ? await pending : await counters.take(pool.key, pool.rule, cost);
      tightest = tighter(tightest, result);
      if (!result.allowed) {
        setRateHeaders(headers, result);
        return { refusedBy: pool, result };
      }
    }
    if (tightest === undefined) throw new Error("a credential's pools are never empty");
    setRateHeaders(headers, tightest);
    return { result: tightest };
  }

  return {
    ofOrganization(orgId) {
      let pools = organizationPools.get(orgId);
      if (pools === undefined) {
        if (organizationPools.size >= KEPT_ORGANIZATIONS) organizationPools.clear();
        pools = [
          { key: `gw:org:${orgId}`, rule: config.organizationPool, code: "EPX0080", chargedRouteCost: 1 },
        ];
        organizationPools.set(orgId, pools);
      }
      return pools;
    },

    ofProject(projectId, ip) {
      return [
        {
          key: `gw:visitor:${projectId}:${addressKey(ip)}`,
          rule: config.visitorBucket,
          code: "EPX0082",
          chargedRouteCost: config.projectQuoteCost,
        },
        {
          key: `gw:project:${projectId}`,
          rule: projectPool,
          code: "EPX0080",
          chargedRouteCost: config.projectQuoteCost,
        },
      ];
    },

    take(headers, pools, route, charge) {
      let tightest: TakeResult | undefined;
      for (let index = 0; index < pools.length; index++) {
        const pool = pools[index] as Pool;
        const cost = !charge ? 0 : route.bucket !== undefined ? pool.chargedRouteCost : 1;
        const taken = counters.take(pool.key, pool.rule, cost);
        // Shared counters answer through a promise: the rest of the pools are taken after it.
        if (taken instanceof Promise) return takeAfter(headers, pools, index, taken, tightest, route, charge);
        tightest = tighter(tightest, taken);
        if (!taken.allowed) {
          setRateHeaders(headers, taken);
          return { refusedBy: pool, result: taken };
        }
      }
      if (tightest === undefined) throw new Error("a credential's pools are never empty");
      setRateHeaders(headers, tightest);
      return { result: tightest };
    },
  };
}
