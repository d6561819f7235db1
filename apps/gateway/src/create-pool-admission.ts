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
   * false it only reads them. The RateLimit headers are the tightest answer's.
   */
  take(
    headers: Record<string, string>,
    pools: readonly Pool[],
    route: RouteDefinition,
    charge: boolean,
  ): Promise<PoolTake>;
}

export function createPoolAdmission(config: GatewayConfig, counters: Counters): PoolAdmission {
  const projectPool =
    config.projectPool ??
    projectPoolRule(config.hubOrganizationBucket, config.projectShare, config.projectQuoteCost);
  // An organization's pool list is made once, not per call: the key string keeps its hash for the
  // counters' map.
  const organizationPools = new Map<string, readonly Pool[]>();

  function setRateHeaders(headers: Record<string, string>, result: TakeResult): void {
    headers["ratelimit-limit"] = String(result.limit);
    headers["ratelimit-remaining"] = String(result.remaining);
    headers["ratelimit-reset"] = String(result.resetSeconds);
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

    async take(headers, pools, route, charge) {
      let tightest: TakeResult | undefined;
      for (const pool of pools) {
        const cost = !charge ? 0 : route.bucket !== undefined ? pool.chargedRouteCost : 1;
        const result = await counters.take(pool.key, pool.rule, cost);
        if (
          !tightest ||
          !result.allowed ||
          result.remaining < tightest.remaining ||
          (result.remaining === tightest.remaining && result.limit < tightest.limit)
        ) {
          tightest = result;
        }
        if (!result.allowed) {
          setRateHeaders(headers, result);
          return { refusedBy: pool, result };
        }
      }
      if (tightest === undefined) throw new Error("a credential's pools are never empty");
      setRateHeaders(headers, tightest);
      return { result: tightest };
    },
  };
}
