import type { DevnetManifest } from "@hub/chain";
import type { Clock } from "@hub/clock";
import type { Logger } from "pino";
import type { ChainClients } from "../create-chain-clients.js";
import { createPollLoop } from "../create-poll-loop.js";
import type { SolanaChain } from "../solana/solana-chain.js";
import { attestFill } from "./attest-fill.js";
import { type CommitteeState, createCommitteeState } from "./committee-state.js";
import type { ObservedFill } from "./observed-fill.js";
import { readFills } from "./read-fills.js";
import type { SolanaRelease } from "./solana-release.js";

export type { AttestationState, ObservedFill } from "./observed-fill.js";

export interface CommitteeConfig {
  manifest: DevnetManifest;
  /** Time between seeing a fill and attesting it; changeable at run time. */
  delayMs: number;
  pollIntervalMs?: number;
}

export interface CommitteeDeps {
  clients: ChainClients;
  clock: Clock;
  logger: Logger;
  /** The Solana stand-in (the manifest's `solana`): fills of EVM orders paid there are read from it. */
  solana?: SolanaChain;
  /** Releases the Solana escrow's deposits of Solana → EVM orders once their fills are seen. */
  solanaRelease?: SolanaRelease;
}

export interface Committee {
  start(): void;
  stop(): Promise<void>;
  delayMs(): number;
  /** Applies to fills still waiting as well: each is attested `delayMs` after it was seen. */
  setDelayMs(delayMs: number): void;
  fills(): ObservedFill[];
}

/**
 * The devnet attestation committee: watches OutputFilled on every chain's output settler and, once a
 * fill has been known for `delayMs`, has every member sign the attestation and submits `threshold`
 * signatures to the committee oracle of the chain where the order was opened. It rescans from the
 * deploy block when restarted and skips attestations the oracle already holds.
 */
export function createCommittee(config: CommitteeConfig, deps: CommitteeDeps): Committee {
  const state = createCommitteeState(config, deps);
  const loop = createPollLoop(
    { name: "committee", intervalMs: config.pollIntervalMs ?? 100, logger: state.log },
    () => attestDueFills(state),
  );
  return {
    start: () => loop.start(),
    stop: () => loop.stop(),
    delayMs: () => state.delayMs,
    setDelayMs(next) {
      if (!Number.isInteger(next) || next < 0) throw new Error(`bad committee delay ${next}`);
      state.delayMs = next;
      loop.wake();
    },
    fills: () =>
      [...state.fills.values()].map(({ observedAtMs: _ms, attestation: _a, output: _o, ...fill }) => ({
        ...fill,
      })),
  };
}

/** One tick: reads new fills, then attests every fill whose delay has passed. */
async function attestDueFills(state: CommitteeState): Promise<void> {
  const { fills, clock, log } = state;
  await readFills(state);
  for (const fill of fills.values()) {
    if (fill.state !== "waiting" || clock.now() < fill.observedAtMs + state.delayMs) continue;
    try {
      if ((await attestFill(state, fill)) !== "rejected") delete fill.lastError;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      // Retried every tick; logged once per distinct failure.
      if (reason !== fill.lastError)
        log.warn({ err: error, orderId: fill.orderId }, "attestation failed; retrying");
      fill.lastError = reason;
    }
  }
}
