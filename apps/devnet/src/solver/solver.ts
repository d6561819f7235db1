import type { Address } from "viem";
import type { SolverOrderResponse, SolverPostOrderResponse } from "../aggregator/oif-order.js";
import type { SolverQuote } from "../aggregator/oif-quote.js";
import { adoptUnregisteredOpens } from "./adopt-unregistered-opens.js";
import { advanceSolverOrder } from "./advance-solver-order.js";
import { errorText } from "./error-text.js";
import { terminal } from "./order-moves.js";
import { approveOutputSettlers, type SolverAssets, solverAssets } from "./solver-assets.js";
import { getSolverOrder, submitSolverOrder } from "./solver-orders.js";
import { solverQuote } from "./solver-quote.js";
import { createSolverState, type SolverConfig, type SolverState } from "./solver-state.js";

export { type BridgedAssetKind, bridgedAssetKinds, type SolverAssets } from "./solver-assets.js";
export type { SolverConfig } from "./solver-state.js";

export interface Solver {
  readonly id: string;
  readonly address: Address;
  readonly quoteLatencyMs: number;
  quote(body: unknown): Promise<{ quotes: SolverQuote[] }>;
  submitOrder(body: unknown): Promise<SolverPostOrderResponse>;
  getOrder(orderId: string): SolverOrderResponse;
  assets(): Promise<SolverAssets>;
  /** Approves the output settlers and starts the background work loop. */
  start(): Promise<void>;
  /** Stops the work loop after the step in progress. */
  stop(): Promise<void>;
}

/** A devnet OIF solver: quotes same-asset bridges between devnet chains, then opens, fills and claims on chain. */
export function createSolver(config: SolverConfig): Solver {
  const state = createSolverState(config);
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> | undefined;

  function schedule(): void {
    timer = setTimeout(() => {
      inFlight = tick(state).finally(() => {
        inFlight = undefined;
        if (state.running) schedule();
      });
    }, state.pollIntervalMs);
  }

  return {
    id: config.id,
    address: state.solverAddress,
    quoteLatencyMs: config.quoteLatencyMs ?? 0,
    quote: (body) => solverQuote(state, body),
    submitOrder: (body) => submitSolverOrder(state, body),
    getOrder: (orderId) => getSolverOrder(state, orderId),
    assets: () => solverAssets(state),
    async start() {
      if (state.running) return;
      await approveOutputSettlers(state);
      state.running = true;
      schedule();
    },
    async stop() {
      state.running = false;
      if (timer) clearTimeout(timer);
      await inFlight;
    },
  };
}

async function tick(state: SolverState): Promise<void> {
  const { config } = state;
  try {
    await adoptUnregisteredOpens(state);
  } catch (error) {
    config.logger?.warn({ solverId: config.id, err: errorText(error) }, "reading Open events failed");
  }
  for (const record of state.orders.values()) {
    if (!state.running) return;
    try {
      for (
        let moves = 0;
        moves < 8 && !terminal(record.status) && (await advanceSolverOrder(state, record));
        moves++
      );
    } catch (error) {
      config.logger?.warn(
        { solverId: config.id, orderId: record.orderId, err: errorText(error) },
        "solver step failed",
      );
    }
  }
  await state.solanaSource?.tick(
    () => state.running,
    (orderId, error) =>
      config.logger?.warn({ solverId: config.id, orderId, err: errorText(error) }, "solver step failed"),
  );
}
