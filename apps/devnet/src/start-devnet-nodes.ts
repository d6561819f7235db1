import { performance } from "node:perf_hooks";
import { type Clock, systemClock } from "@hub/clock";
import type { Logger } from "pino";
import { type DevnetChains, startDevnetChains } from "./chains/index.js";
import { startIdleMiner } from "./chains/start-idle-miner.js";
import type { DevnetCleanup } from "./devnet-cleanup.js";
import { type SolanaDevnet, startSolanaDevnet } from "./solana/start-solana-devnet.js";

/**
 * The devnet's chain nodes: the EVM chains (given, or started here) with their idle miner, then the
 * Solana stand-in; with how long each took.
 */
export async function startDevnetNodes(
  config: {
    chains?: DevnetChains;
    rpcPorts?: number[];
    blockTimeSeconds?: number;
    idleBlockMs?: number;
    solanaRpcPort?: number;
    clock?: Clock;
    logger: Logger;
  },
  options: { pollIntervalMs: number; startedAt: number; cleanup: DevnetCleanup },
): Promise<{ chains: DevnetChains; solana: SolanaDevnet; chainsMs: number; solanaMs: number }> {
  const { logger } = config;
  const { pollIntervalMs, startedAt, cleanup } = options;
  const chains =
    config.chains ??
    (await startDevnetChains({
      ...(config.rpcPorts ? { rpcPorts: config.rpcPorts } : {}),
      ...(config.blockTimeSeconds !== undefined ? { blockTimeSeconds: config.blockTimeSeconds } : {}),
    }));
  cleanup.push(() => chains.stop());
  if (config.idleBlockMs !== undefined) {
    cleanup.push(
      startIdleMiner(
        chains.manifest.chains.map((chain) => chain.rpcUrl),
        config.idleBlockMs,
      ),
    );
  }
  const chainsMs = Math.round(performance.now() - startedAt);
  const solanaStartedAt = performance.now();
  const solana = await startSolanaDevnet({
    rpcPort: config.solanaRpcPort ?? 0,
    clock: config.clock ?? systemClock,
    pollIntervalMs,
    evmChains: chains.manifest.chains,
    logger: logger.child({ service: "solana-rpc" }),
  });
  cleanup.push(() => solana.stop());
  const solanaMs = Math.round(performance.now() - solanaStartedAt);
  return { chains, solana, chainsMs, solanaMs };
}
