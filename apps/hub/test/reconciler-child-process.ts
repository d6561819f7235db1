// A reconciler in its own process, for the kill test: reads its configuration as JSON from argv[2],
// opens the database itself (PostgreSQL at databaseUrl, or the PGlite dir under dataDir), runs the poll
// loop until it is killed, never stops on its own, and prints "watermark <chainDomain> <block>" on
// stdout each time a chain's watermark moves. With pauseInRollback it prints "rollback paused
// <chainDomain>" inside its first rollback's transaction, before the commit, and waits there for good.
import { systemClock } from "@hub/clock";
import { openStore } from "@hub/store";
import { pino } from "pino";
import { createReconciler, type ReconcilerChainConfig } from "../src/reconciler/index.js";
import { createChainFactsStore } from "../src/store/chain-facts-store.js";

interface ChildConfig {
  dataDir: string;
  databaseUrl?: string;
  chains: ReconcilerChainConfig[];
  leaseName: string;
  instanceId: string;
  leaseTtlMs: number;
  maxBlockRange: number;
  pauseInRollback?: boolean;
}

const config = JSON.parse(process.argv[2] ?? "{}") as ChildConfig;
const { sql } = await openStore({
  dataDir: config.dataDir,
  ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}),
  migrate: false,
});
const reconciler = createReconciler({
  sql,
  chains: config.chains,
  clock: systemClock,
  logger: pino({ level: "silent" }),
  leaseName: config.leaseName,
  instanceId: config.instanceId,
  leaseTtlMs: config.leaseTtlMs,
  maxBlockRange: config.maxBlockRange,
  pollIntervalMs: 10,
  ...(config.pauseInRollback
    ? {
        beforeRollbackCommit: async (chainDomain: string) => {
          process.stdout.write(`rollback paused ${chainDomain}\n`);
          await new Promise(() => {});
        },
      }
    : {}),
});
reconciler.start();
const facts = createChainFactsStore(sql);
const printed = new Map<string, number>();
for (;;) {
  for (const { chainDomain } of config.chains) {
    const lastBlock = (await facts.getWatermark(chainDomain))?.lastBlock;
    if (lastBlock === undefined || printed.get(chainDomain) === lastBlock) continue;
    printed.set(chainDomain, lastBlock);
    process.stdout.write(`watermark ${chainDomain} ${lastBlock}\n`);
  }
  await new Promise((resolve) => setTimeout(resolve, 10));
}
