import { performance } from "node:perf_hooks";
import { devnetIdleBlockMs } from "@hub/chain";
import { pino } from "pino";
import { z } from "zod";
import { createDevnet } from "./create-devnet.js";

const envSchema = z.object({
  DEVNET_PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  DEVNET_RPC_PORTS: z
    .string()
    .regex(/^\d+(,\d+)*$/, "comma-separated ports")
    .transform((value) => value.split(",").map(Number))
    .default([8545, 8546]),
  DEVNET_RPC_FAULT_PORTS: z
    .string()
    .regex(/^\d+(,\d+)*$/, "comma-separated ports")
    .transform((value) => value.split(",").map(Number))
    .default([8645, 8646]),
  DEVNET_SOLANA_RPC_PORT: z.coerce.number().int().min(0).max(65535).default(8899),
  DEVNET_COMMITTEE_DELAY_MS: z.coerce.number().int().min(0).default(2000),
  DEVNET_BLOCK_TIME_SECONDS: z.coerce.number().int().positive().optional(),
  HUB_DATA_DIR: z.string().min(1).default(".data"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});

const parsed = envSchema.safeParse(process.env);
if (!parsed.success) {
  for (const issue of parsed.error.issues) console.error(`${issue.path.join(".")}: ${issue.message}`);
  process.exit(2);
}
const env = parsed.data;
const logger = pino({ level: env.LOG_LEVEL });
// Signals are taken before start-up so a Ctrl-C while the chains deploy still stops every anvil.
let stopRequested: string | undefined;
let stop: (() => Promise<void>) | undefined;
async function shutdown(signal: string): Promise<void> {
  if (stopRequested) return;
  stopRequested = signal;
  if (!stop) return;
  logger.info({ signal }, "devnet stopping");
  try {
    await stop();
    process.exit(0);
  } catch (error) {
    logger.error({ err: error }, "devnet stop failed");
    process.exit(1);
  }
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));

const startedAt = performance.now();
let devnet: Awaited<ReturnType<typeof createDevnet>>;
try {
  devnet = await createDevnet({
    port: env.DEVNET_PORT,
    rpcPorts: env.DEVNET_RPC_PORTS,
    rpcFaultPorts: env.DEVNET_RPC_FAULT_PORTS,
    solanaRpcPort: env.DEVNET_SOLANA_RPC_PORT,
    committeeDelayMs: env.DEVNET_COMMITTEE_DELAY_MS,
    // The catalog it writes makes a block final at devnetFinalityDepth: blocks keep coming while idle.
    idleBlockMs: devnetIdleBlockMs,
    ...(env.DEVNET_BLOCK_TIME_SECONDS !== undefined
      ? { blockTimeSeconds: env.DEVNET_BLOCK_TIME_SECONDS }
      : {}),
    dataDir: env.HUB_DATA_DIR,
    logger,
  });
} catch (error) {
  logger.error({ err: error }, "devnet failed to start");
  process.exit(1);
}
const readyMs = Math.round(performance.now() - startedAt);
stop = () => devnet.stop();
if (stopRequested) {
  const signal = stopRequested;
  stopRequested = undefined;
  await shutdown(signal);
}

console.log(`devnet control    ${devnet.url}/control`);
console.log(`OIF aggregator    ${devnet.url}/spec/aggregator (the specification's dialect)`);
console.log(`OIF aggregator    ${devnet.url}/aggregator (the reference aggregator's dialect)`);
console.log(`external quotes   ${devnet.url}/external/quote`);
for (const chain of devnet.manifest.chains)
  console.log(`chain ${chain.chainDomain.padEnd(13)}${chain.rpcUrl}`);
for (const { chainId, rpcUrl } of devnet.faultRpcUrls)
  console.log(
    `${`faulty eip155:${chainId}`.padEnd(18)}${rpcUrl} (RPC faults: POST /control/chains/${chainId}/rpc-faults)`,
  );
console.log(`chain ${devnet.solana.manifest.chainDomain} ${devnet.solana.manifest.rpcUrl}`);
console.log(`manifest          ${devnet.files.manifestFile}`);
console.log(`catalog           ${devnet.files.catalogFile}`);
console.log(`devnet ready in ${readyMs} ms at ${devnet.url}`);
