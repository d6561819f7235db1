import type { DevnetManifest } from "@hub/chain";
import type { Clock } from "@hub/clock";
import type { Logger } from "pino";
import type { FaultKnobs } from "./faults/fault-knobs.js";
import { solanaKeypairFromSecretKey } from "./solana/solana-keypair.js";
import type { SolanaDevnet } from "./solana/start-solana-devnet.js";
import { createSolver, type Solver } from "./solver/solver.js";

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
export const defaultSolvers: DevnetSolverConfig[] = [
  { id: "alpha", spreadBps: 30, quoteLatencyMs: 120, etaSeconds: 90 },
  { id: "beta", spreadBps: 50, quoteLatencyMs: 20, etaSeconds: 30 },
];

/** One solver per config, each with its funded EVM and Solana keys (the manifest's, in order). */
export function createDevnetSolvers(
  solverConfigs: DevnetSolverConfig[],
  context: {
    manifest: DevnetManifest;
    solana: SolanaDevnet;
    pollIntervalMs: number;
    clock: Clock;
    faults: FaultKnobs;
    logger: Logger;
  },
): Solver[] {
  const { manifest, solana, pollIntervalMs, clock, faults, logger } = context;
  return solverConfigs.map((solver, index) =>
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
}
