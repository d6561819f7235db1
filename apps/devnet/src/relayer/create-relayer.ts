import type { DevnetManifest } from "@hub/chain";
import type { Logger } from "pino";
import type { ChainClients } from "../create-chain-clients.js";
import { createPollLoop } from "../create-poll-loop.js";
import { readDeposits } from "./read-deposits.js";
import type { RelayedDeposit } from "./relayed-deposit.js";
import { createRelayerState, type RelayerState } from "./relayer-state.js";
import { releaseDeposit } from "./release-deposit.js";

export type { RelayedDeposit, RelayedDepositState } from "./relayed-deposit.js";

export interface RelayerConfig {
  manifest: DevnetManifest;
  /** Bridge fee in basis points taken from each deposit; the external aggregator quotes with the same. */
  feeBps: number;
  pollIntervalMs?: number;
  paused?: boolean;
}

export interface RelayerDeps {
  clients: ChainClients;
  logger: Logger;
}

export interface Relayer {
  start(): void;
  stop(): Promise<void>;
  pause(): void;
  resume(): void;
  isPaused(): boolean;
  deposits(): RelayedDeposit[];
  /** The deposit made with this `ref` (the external aggregator sets it from the quote id). */
  findByRef(ref: `0x${string}`): RelayedDeposit | undefined;
}

/**
 * The open-flow lane's relayer: reads Deposited on every chain's bridge and calls release on the
 * destination chain's bridge with the relayer key, once per deposit. On a restart it rescans from the
 * deploy block and skips deposits the destination already released.
 */
export function createRelayer(config: RelayerConfig, deps: RelayerDeps): Relayer {
  const state = createRelayerState(config, deps);
  const loop = createPollLoop(
    { name: "relayer", intervalMs: config.pollIntervalMs ?? 100, logger: state.log },
    () => releasePending(state),
  );
  return {
    start: () => loop.start(),
    stop: () => loop.stop(),
    pause() {
      state.paused = true;
    },
    resume() {
      state.paused = false;
      loop.wake();
    },
    isPaused: () => state.paused,
    deposits: () => [...state.deposits.values()].map((entry) => ({ ...entry })),
    findByRef(ref) {
      const wanted = ref.toLowerCase();
      for (const entry of state.deposits.values())
        if (entry.ref.toLowerCase() === wanted) return { ...entry };
      return undefined;
    },
  };
}

/** One tick: reads new deposits, then releases each pending one, unless the relayer is paused. */
async function releasePending(state: RelayerState): Promise<void> {
  const { deposits, log } = state;
  await readDeposits(state);
  for (const entry of deposits.values()) {
    if (state.paused) return;
    if (entry.state !== "pending") continue;
    try {
      await releaseDeposit(state, entry);
      delete entry.reason;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      // Retried every tick (liquidity may come back); logged once per distinct failure.
      if (reason !== entry.reason)
        log.warn({ err: error, depositId: entry.depositId }, "release failed; retrying");
      entry.reason = reason;
    }
  }
}
