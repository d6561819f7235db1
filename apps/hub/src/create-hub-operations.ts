import type { Clock } from "@hub/clock";
import type { SqlClient } from "@hub/store";
import type { Registry } from "prom-client";
import type { UpstreamAccess } from "./create-upstream-access.js";
import { createReadiness, type Readiness, type ReadinessCheck } from "./metrics/readiness.js";
import { databaseCheck, upstreamCheck } from "./operations/hub-readiness-checks.js";
import { createOperationsMetrics, type OperationsMetrics } from "./operations/operations-metrics.js";
import type { ReconcilerView } from "./operations/reconciler-view.js";
import { createOperationsStore } from "./store/operations-store.js";

export interface HubOperationsDeps {
  registry: Registry;
  sql: SqlClient | undefined;
  clock: Clock;
  upstream: UpstreamAccess;
  /** The reconciler running in this process, if any. */
  reconciler: ReconcilerView | undefined;
  chainStaleAfterMs: number | undefined;
  /** More checks from the process around the hub (Redis). */
  extraChecks: readonly ReadinessCheck[];
  /** Each indexed chain's checks, from its family. */
  chainChecks: readonly ReadinessCheck[];
}

/** What an operator watches: the operations metrics, and what /readyz checks, in its order. */
export function createHubOperations(deps: HubOperationsDeps): {
  metrics: OperationsMetrics;
  readiness: Readiness;
} {
  const { upstream, reconciler } = deps;
  const operationsStore = deps.sql && createOperationsStore(deps.sql);
  const metrics = createOperationsMetrics(deps.registry, {
    clock: deps.clock,
    ...(operationsStore ? { store: operationsStore } : {}),
    ...(reconciler ? { reconciler } : {}),
    quotesInFlight: () => upstream.admission.inFlight,
    upstreamInFlight: (providerId) => upstream.outbound.inFlight(providerId),
    providerIds: upstream.providers?.all.map((client) => client.provider.id) ?? [],
    ...(deps.chainStaleAfterMs === undefined ? {} : { chainStaleAfterMs: deps.chainStaleAfterMs }),
  });
  const readiness = createReadiness({
    checks: [
      ...(operationsStore ? [databaseCheck(operationsStore)] : []),
      ...deps.extraChecks,
      ...(upstream.providers?.all.filter((client) => client.provider.enabled).map(upstreamCheck) ?? []),
      ...deps.chainChecks,
    ],
  });
  return { metrics, readiness };
}
