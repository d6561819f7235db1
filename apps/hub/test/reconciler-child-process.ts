// A reconciler in its own process, for the kill test: reads its configuration as JSON from argv[2],
// runs the poll loop on PostgreSQL until it is killed, and never stops on its own.
import { systemClock } from "@hub/clock";
import { createPostgresClient } from "@hub/store";
import { pino } from "pino";
import { createReconciler, type ReconcilerChainConfig } from "../src/reconciler/index.js";

interface ChildConfig {
  connectionString: string;
  schema: string;
  chains: ReconcilerChainConfig[];
  leaseName: string;
  instanceId: string;
  leaseTtlMs: number;
  maxBlockRange: number;
}

const config = JSON.parse(process.argv[2] ?? "{}") as ChildConfig;
const reconciler = createReconciler({
  sql: createPostgresClient({ connectionString: config.connectionString, schema: config.schema }),
  chains: config.chains,
  clock: systemClock,
  logger: pino({ level: "silent" }),
  leaseName: config.leaseName,
  instanceId: config.instanceId,
  leaseTtlMs: config.leaseTtlMs,
  maxBlockRange: config.maxBlockRange,
  pollIntervalMs: 10,
});
reconciler.start();
process.stdout.write("started\n");
