import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import type { DevnetManifest } from "@hub/chain";
import { type Clock, createAdjustableClock, systemClock } from "@hub/clock";
import type { Catalog } from "@hub/contract";
import Fastify, { type FastifyBaseLogger, LogController } from "fastify";
import type { Logger } from "pino";
import { createAggregator } from "./aggregator/aggregator.js";
import { registerAggregatorRoutes } from "./aggregator/register-aggregator-routes.js";
import { buildCatalog, type DevnetChains, startDevnetChains } from "./chains/index.js";
import { type Committee, createCommittee } from "./committee/create-committee.js";
import { createSolanaRelease } from "./committee/solana-release.js";
import { createChainTimeControl } from "./control/create-chain-time-control.js";
import { registerControlRoutes } from "./control/register-control-routes.js";
import { createChainClients } from "./create-chain-clients.js";
import { createExternalAggregator } from "./external-aggregator/create-external-aggregator.js";
import { registerExternalAggregatorRoutes } from "./external-aggregator/register-external-aggregator-routes.js";
import { createFaultKnobs } from "./faults/fault-knobs.js";
import { dialectPathPrefix, type OifDialect, oifDialects } from "./oif-dialect.js";
import { createRelayer, type Relayer } from "./relayer/create-relayer.js";
import { registerSolverRoutes } from "./solver/register-solver-routes.js";
import { createSolver, type Solver } from "./solver/solver.js";
import { solanaKeypairFromSecretKey } from "./solana/solana-keypair.js";
import { type SolanaDevnet, startSolanaDevnet } from "./solana/start-solana-devnet.js";
import { type DevnetFiles, writeDevnetFiles } from "./write-devnet-files.js";

export interface DevnetConfig {
  /** Control and HTTP port on 127.0.0.1; 4000 by default, 0 picks a free one. */
  port?: number;
  /** One JSON-RPC port per chain; absent or 0 picks free ones. */
  rpcPorts?: number[];
  /** The Solana stand-in's JSON-RPC port; absent or 0 picks a free one. */
  solanaRpcPort?: number;
  /** Time between a fill and its attestation; 2000 by default, changeable through /control. */
  committeeDelayMs?: number;
  /** Seconds between blocks; absent mines a block per transaction. */
  blockTimeSeconds?: number;
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

export interface DevnetSolverConfig {
  id: string;
  spreadBps: number;
  /** Time the solver takes to answer a quote request. */
  quoteLatencyMs?: number;
  /** The fill time the solver announces in its quotes. */
  etaSeconds?: number;
  /** How long the solver's quotes stay valid (validUntil); 30 by default. */
  quoteValiditySeconds?: number;
}

// The two solvers differ in price and in speed, so a quote round has a real choice to make:
// alpha is cheaper and slower to answer, beta dearer and quicker.
const defaultSolvers: DevnetSolverConfig[] = [
  { id: "alpha", spreadBps: 30, quoteLatencyMs: 120, etaSeconds: 90 },
  { id: "beta", spreadBps: 50, quoteLatencyMs: 20, etaSeconds: 30 },
];

/**
 * Where the OIF services of each dialect are mounted: the reference aggregator's at `/aggregator` and
 * `/solvers/<id>` (as before dialects), the specification's at `/spec/aggregator` and `/spec/solvers/<id>`.
 * Both run on every devnet, in front of the same solvers.
 */
export const devnetOifMounts: Readonly<Record<OifDialect, { aggregator: string; solvers: string }>> = {
  "oif-aggregator": { aggregator: "/aggregator", solvers: "/solvers" },
  "oif-spec-1": { aggregator: "/spec/aggregator", solvers: "/spec/solvers" },
};

export interface Devnet {
  /** Base URL of the devnet's HTTP server: /aggregator, /spec/aggregator, /solvers/<id>, /spec/solvers/<id>, /external, /control, /healthz. */
  url: string;
  manifest: DevnetManifest;
  catalog: Catalog;
  files: DevnetFiles;
  /** The Solana stand-in chain and its escrow (its facts are also `manifest.solana`). */
  solana: SolanaDevnet;
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
  const cleanup: Array<() => Promise<void>> = [];

  async function stopAll(): Promise<void> {
    const errors: unknown[] = [];
    for (const step of cleanup.splice(0).reverse()) {
      try {
        await step();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length > 0) throw new AggregateError(errors, "devnet did not stop cleanly");
  }

  const startedAt = performance.now();
  try {
    const chains =
      config.chains ??
      (await startDevnetChains({
        ...(config.rpcPorts ? { rpcPorts: config.rpcPorts } : {}),
        ...(config.blockTimeSeconds !== undefined ? { blockTimeSeconds: config.blockTimeSeconds } : {}),
      }));
    cleanup.push(() => chains.stop());
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
    const manifest: DevnetManifest = { ...chains.manifest, solana: solana.manifest };
    const catalog = buildCatalog(manifest);
    const clients = createChainClients(manifest);

    const committee: Committee = createCommittee(
      { manifest, delayMs: defaultCommitteeDelayMs, pollIntervalMs },
      {
        clients,
        clock,
        logger,
        solana: solana.chain,
        solanaRelease: createSolanaRelease({
          escrow: solana.escrow,
          chainDomain: solana.chain.chainDomain,
          clients,
        }),
      },
    );
    committee.start();
    cleanup.push(() => committee.stop());
    const relayer: Relayer = createRelayer({ manifest, feeBps, pollIntervalMs }, { clients, logger });
    relayer.start();
    cleanup.push(() => relayer.stop());

    const solverConfigs = config.solvers ?? defaultSolvers;
    if (solverConfigs.length === 0 || solverConfigs.length > manifest.solvers.length)
      throw new Error(
        `${solverConfigs.length} solvers asked for, the manifest funds 1 to ${manifest.solvers.length}`,
      );
    const faults = createFaultKnobs({ solverIds: solverConfigs.map((solver) => solver.id) });
    const solvers: Solver[] = solverConfigs.map((solver, index) =>
      createSolver({
        id: solver.id,
        account: manifest.solvers[index]!,
        ...(manifest.solana?.solvers[index] ? { solanaAccount: manifest.solana.solvers[index] } : {}),
        manifest,
        spreadBps: solver.spreadBps,
        ...(solver.quoteLatencyMs !== undefined ? { quoteLatencyMs: solver.quoteLatencyMs } : {}),
        ...(solver.etaSeconds !== undefined ? { etaSeconds: solver.etaSeconds } : {}),
        ...(solver.quoteValiditySeconds !== undefined
          ? { quoteValiditySeconds: solver.quoteValiditySeconds }
          : {}),
        pollIntervalMs,
        clock,
        faults,
        logger: logger.child({ service: "solver", solverId: solver.id }),
        solana: {
          chain: solana.chain,
          escrow: solana.escrow,
          keypair: solanaKeypairFromSecretKey(solana.manifest.solvers[index]!.secretKey),
        },
      }),
    );
    cleanup.push(async () => {
      await Promise.all(solvers.map((solver) => solver.stop()));
    });
    await Promise.all(solvers.map((solver) => solver.start()));
    const externalAggregator = createExternalAggregator(
      { manifest, catalog, feeBps },
      { clients, clock, relayer },
    );

    let ready = false;
    const app = Fastify({
      loggerInstance: logger.child({ service: "devnet-http" }) as FastifyBaseLogger,
      logController: new LogController({ disableRequestLogging: true }),
    });
    cleanup.push(() => app.close());
    app.get("/healthz", async (_request, reply) =>
      ready ? { status: "ready" } : reply.code(503).send({ status: "starting" }),
    );
    let url = "";
    for (const dialect of oifDialects) {
      const mounts = devnetOifMounts[dialect];
      const aggregator = createAggregator({
        solvers: solvers.map((solver) => ({
          solverId: solver.id,
          baseUrl: () => `${url}${mounts.solvers}/${solver.id}${dialectPathPrefix[dialect]}`,
        })),
        integritySecret: randomBytes(32).toString("hex"),
        clock,
      });
      registerAggregatorRoutes(app, { prefix: mounts.aggregator, aggregator, faults, clock, dialect });
      for (const solver of solvers)
        registerSolverRoutes(app, { prefix: `${mounts.solvers}/${solver.id}`, solver, faults, dialect });
    }
    registerExternalAggregatorRoutes(app, { prefix: "/external", externalAggregator });
    registerControlRoutes(app, {
      prefix: "/control",
      committee,
      relayer,
      faults,
      clients,
      timeControl: createChainTimeControl(clients),
      solanaChain: solana.chain,
      clock,
      defaultCommitteeDelayMs,
    });
    await app.listen({ host: "127.0.0.1", port: config.port ?? 4000 });
    const address = app.server.address();
    if (address === null || typeof address === "string") throw new Error("devnet server has no TCP address");
    url = `http://127.0.0.1:${address.port}`;

    const files = await writeDevnetFiles(config.dataDir ?? ".data", manifest, catalog);
    ready = true;
    logger.info(
      { url, chainsMs, solanaMs, readyMs: Math.round(performance.now() - startedAt) },
      "devnet ready",
    );
    return { url, manifest, catalog, files, solana, stop: stopAll };
  } catch (error) {
    await stopAll().catch((stopError: unknown) => logger.error({ err: stopError }, "devnet cleanup failed"));
    throw error;
  }
}
