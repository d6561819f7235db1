import { randomBytes } from "node:crypto";
import type { AdjustableClock } from "@hub/clock";
import Fastify, { type FastifyBaseLogger, LogController } from "fastify";
import type { Logger } from "pino";
import { createAggregator } from "./aggregator/aggregator.js";
import { registerAggregatorRoutes } from "./aggregator/register-aggregator-routes.js";
import type { Committee } from "./committee/create-committee.js";
import { createChainReorgControl } from "./control/create-chain-reorg.js";
import { createChainTimeControl } from "./control/create-chain-time-control.js";
import { registerControlRoutes } from "./control/register-control-routes.js";
import type { ChainClients } from "./create-chain-clients.js";
import type { DevnetCleanup } from "./devnet-cleanup.js";
import { devnetOifMounts } from "./devnet-oif-mounts.js";
import type { ExternalAggregator } from "./external-aggregator/create-external-aggregator.js";
import { registerExternalAggregatorRoutes } from "./external-aggregator/register-external-aggregator-routes.js";
import type { FaultKnobs } from "./faults/fault-knobs.js";
import { dialectPathPrefix, oifDialects } from "./oif-dialect.js";
import type { Relayer } from "./relayer/create-relayer.js";
import type { ChainRpcProxies } from "./rpc-proxy/create-chain-rpc-proxies.js";
import type { SolanaChain } from "./solana/solana-chain.js";
import { registerSolverRoutes } from "./solver/register-solver-routes.js";
import type { Solver } from "./solver/solver.js";

/** The services the devnet's HTTP server mounts. */
export interface DevnetServices {
  committee: Committee;
  relayer: Relayer;
  faults: FaultKnobs;
  solvers: Solver[];
  externalAggregator: ExternalAggregator;
  clients: ChainClients;
  rpcProxies: ChainRpcProxies;
  solanaChain: SolanaChain;
  clock: AdjustableClock;
  defaultCommitteeDelayMs: number;
}

/**
 * The devnet's one HTTP server on 127.0.0.1: /healthz, each dialect's aggregator and solvers, /external
 * and /control. /healthz reads starting until markReady.
 */
export async function startDevnetServer(
  services: DevnetServices,
  options: { port: number; logger: Logger; cleanup: DevnetCleanup },
): Promise<{ url: string; markReady(): void }> {
  const { committee, relayer, faults, solvers, externalAggregator, clients, rpcProxies, clock } = services;
  const { logger, cleanup } = options;
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
    reorgControl: createChainReorgControl(clients),
    rpcProxies,
    solanaChain: services.solanaChain,
    clock,
    defaultCommitteeDelayMs: services.defaultCommitteeDelayMs,
  });
  await app.listen({ host: "127.0.0.1", port: options.port });
  const address = app.server.address();
  if (address === null || typeof address === "string") throw new Error("devnet server has no TCP address");
  url = `http://127.0.0.1:${address.port}`;
  return {
    url,
    markReady: () => {
      ready = true;
    },
  };
}
