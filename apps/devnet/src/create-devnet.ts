import { performance } from "node:perf_hooks";
import type { DevnetManifest } from "@hub/chain";
import { type Clock, createAdjustableClock, systemClock } from "@hub/clock";
import type { Catalog } from "@hub/contract";
import type { Logger } from "pino";
import { buildCatalog, type DevnetChains } from "./chains/index.js";
import { createChainClients } from "./create-chain-clients.js";
import { createDevnetCleanup } from "./devnet-cleanup.js";
import { type DevnetSolverConfig, defaultSolvers } from "./devnet-solvers.js";
import { createChainRpcProxies } from "./rpc-proxy/create-chain-rpc-proxies.js";
import type { SolanaDevnet } from "./solana/start-solana-devnet.js";
import { startDevnetNodes } from "./start-devnet-nodes.js";
import { startDevnetServer } from "./start-devnet-server.js";
import { startDevnetServices } from "./start-devnet-services.js";
import { type DevnetFiles, writeDevnetFiles } from "./write-devnet-files.js";

export { devnetOifMounts } from "./devnet-oif-mounts.js";
export type { DevnetSolverConfig } from "./devnet-solvers.js";

export interface DevnetConfig {
  /** Control and HTTP port on 127.0.0.1; 4000 by default, 0 picks a free one. */
  port?: number;
  /** One JSON-RPC port per chain; absent or 0 picks free ones. */
  rpcPorts?: number[];
  /** One port per EVM chain for its fault-injecting RPC proxy (`/control/chains/{chain}/rpc-faults`); absent or 0 picks free ones. */
  rpcFaultPorts?: number[];
  /** The Solana stand-in's JSON-RPC port; absent or 0 picks a free one. */
  solanaRpcPort?: number;
  /** Time between a fill and its attestation; 2000 by default, changeable through /control. */
  committeeDelayMs?: number;
  /** Seconds between blocks; absent mines a block per transaction. */
  blockTimeSeconds?: number;
  /**
   * Mines an empty block on each EVM chain this often, beside automine, so that blocks become final by
   * a confirmation depth on an idle chain (`npm start` sets devnetIdleBlockMs); absent: none.
   */
  idleBlockMs?: number;
  /**
   * The EVM chains, already started by `startDevnetChains` (so they boot while the rest of the devnet
   * loads): the devnet stops them with itself, and `rpcPorts` and `blockTimeSeconds` are not read.
   */
  chains?: DevnetChains;
  /** Folder under which `devnet/manifest.json` and `devnet/catalog.json` are written; `.data` by default. */
  dataDir?: string;
  logger: Logger;
  /** Bridge fee of the open-flow lane in basis points; 10 by default. */
  bridgeFeeBps?: number;
  /** How often the committee, the relayer and the solvers read the chains; 100 ms by default. */
  pollIntervalMs?: number;
  /** The solvers behind the OIF aggregator, one per funded solver key; `alpha` (30 bps) and `beta` (50 bps) by default. */
  solvers?: DevnetSolverConfig[];
  clock?: Clock;
}

export interface Devnet {
  /** Base URL of the devnet's HTTP server: /aggregator, /spec/aggregator, /solvers/<id>, /spec/solvers/<id>, /external, /control, /healthz. */
  url: string;
  manifest: DevnetManifest;
  catalog: Catalog;
  files: DevnetFiles;
  /** The Solana stand-in chain and its escrow (its facts are also `manifest.solana`). */
  solana: SolanaDevnet;
  /** Each EVM chain's fault-injecting RPC URL (a proxy in front of `manifest.chains[].rpcUrl`). */
  faultRpcUrls: { chainId: number; rpcUrl: string }[];
  /** Closes the server, stops every service and every chain node; resolves once they have exited. */
  stop(): Promise<void>;
}

/** Starts the whole devnet: chains, committee, relayer, aggregator, solvers, external aggregator, one HTTP server. */
export async function createDevnet(config: DevnetConfig): Promise<Devnet> {
  const { logger } = config;
  // One off-chain clock for every service, so that moving it (POST /control/clock/advance) expires quotes everywhere.
  const clock = createAdjustableClock(config.clock ?? systemClock);
  const defaultCommitteeDelayMs = config.committeeDelayMs ?? 2000;
  const feeBps = config.bridgeFeeBps ?? 10;
  const pollIntervalMs = config.pollIntervalMs ?? 100;
  const cleanup = createDevnetCleanup();
  const startedAt = performance.now();
  try {
    const { chains, solana, chainsMs, solanaMs } = await startDevnetNodes(config, {
      pollIntervalMs,
      startedAt,
      cleanup,
    });
    const manifest: DevnetManifest = { ...chains.manifest, solana: solana.manifest };
    const catalog = buildCatalog(manifest);
    const clients = createChainClients(manifest);
    const rpcProxies = await createChainRpcProxies({
      chains: manifest.chains,
      ...(config.rpcFaultPorts ? { ports: config.rpcFaultPorts } : {}),
    });
    cleanup.push(() => rpcProxies.close());
    const services = await startDevnetServices(
      {
        manifest,
        catalog,
        clients,
        solana,
        clock,
        logger,
        feeBps,
        pollIntervalMs,
        defaultCommitteeDelayMs,
        solverConfigs: config.solvers ?? defaultSolvers,
      },
      cleanup,
    );
    const { url, markReady } = await startDevnetServer(
      { ...services, clients, rpcProxies, solanaChain: solana.chain, clock, defaultCommitteeDelayMs },
      { port: config.port ?? 4000, logger, cleanup },
    );
    const files = await writeDevnetFiles(config.dataDir ?? ".data", manifest, catalog);
    markReady();
    logger.info(
      { url, chainsMs, solanaMs, readyMs: Math.round(performance.now() - startedAt) },
      "devnet ready",
    );
    return { url, manifest, catalog, files, solana, faultRpcUrls: rpcProxies.urls(), stop: cleanup.stopAll };
  } catch (error) {
    await cleanup
      .stopAll()
      .catch((stopError: unknown) => logger.error({ err: stopError }, "devnet cleanup failed"));
    throw error;
  }
}
