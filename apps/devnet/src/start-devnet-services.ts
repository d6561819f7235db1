import type { DevnetManifest } from "@hub/chain";
import type { Clock } from "@hub/clock";
import type { Catalog } from "@hub/contract";
import type { Logger } from "pino";
import { type Committee, createCommittee } from "./committee/create-committee.js";
import { createSolanaRelease } from "./committee/solana-release.js";
import type { ChainClients } from "./create-chain-clients.js";
import type { DevnetCleanup } from "./devnet-cleanup.js";
import { createDevnetSolvers, type DevnetSolverConfig } from "./devnet-solvers.js";
import {
  createExternalAggregator,
  type ExternalAggregator,
} from "./external-aggregator/create-external-aggregator.js";
import { createFaultKnobs, type FaultKnobs } from "./faults/fault-knobs.js";
import { createRelayer, type Relayer } from "./relayer/create-relayer.js";
import type { SolanaDevnet } from "./solana/start-solana-devnet.js";
import type { Solver } from "./solver/solver.js";

/** Starts the devnet's off-chain services over its chains: committee, relayer, solvers, external aggregator. */
export async function startDevnetServices(
  context: {
    manifest: DevnetManifest;
    catalog: Catalog;
    clients: ChainClients;
    solana: SolanaDevnet;
    clock: Clock;
    logger: Logger;
    feeBps: number;
    pollIntervalMs: number;
    defaultCommitteeDelayMs: number;
    solverConfigs: DevnetSolverConfig[];
  },
  cleanup: DevnetCleanup,
): Promise<{
  committee: Committee;
  relayer: Relayer;
  faults: FaultKnobs;
  solvers: Solver[];
  externalAggregator: ExternalAggregator;
}> {
  const { manifest, catalog, clients, solana, clock, logger, feeBps, pollIntervalMs } = context;
  const { defaultCommitteeDelayMs, solverConfigs } = context;
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

  if (solverConfigs.length === 0 || solverConfigs.length > manifest.solvers.length)
    throw new Error(
      `${solverConfigs.length} solvers asked for, the manifest funds 1 to ${manifest.solvers.length}`,
    );
  const faults = createFaultKnobs({ solverIds: solverConfigs.map((solver) => solver.id) });
  const solvers = createDevnetSolvers(solverConfigs, {
    manifest,
    solana,
    pollIntervalMs,
    clock,
    faults,
    logger,
  });
  cleanup.push(async () => {
    await Promise.all(solvers.map((solver) => solver.stop()));
  });
  await Promise.all(solvers.map((solver) => solver.start()));
  const externalAggregator = createExternalAggregator(
    { manifest, catalog, feeBps },
    { clients, clock, relayer },
  );
  return { committee, relayer, faults, solvers, externalAggregator };
}
