// The hub both status benchmarks read through: the bench catalog, one scripted OIF aggregator as the
// followed orders' upstream, no per-IP limit, the gateway's credential below.
import { createTestHubApp } from "@hub/hub-app/test-harness";
import type { SqlClient } from "@hub/store";
import type { Logger } from "pino";
import { benchCatalog } from "./gateway-catalog.js";

export const STATUS_BENCH_HUB_SECRET = "bench-gateway-credential-0123456789abcdef";

export function createStatusBenchHub(sql: SqlClient, aggregatorUrl: string, logger: Logger) {
  return createTestHubApp({
    config: { gatewayCredential: STATUS_BENCH_HUB_SECRET, perIpBucket: { ratePerSecond: 1e9, burst: 1e9 } },
    catalog: benchCatalog(),
    logger,
    sql,
    providers: [
      {
        id: "scripted",
        kind: "oif-aggregator",
        dialect: "oif-aggregator",
        baseUrl: aggregatorUrl,
        timeoutMs: 2000,
      },
    ],
  });
}
