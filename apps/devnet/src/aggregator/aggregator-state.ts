import { type Clock, systemClock } from "@hub/clock";
import type { OrderResponse } from "./oif-order.js";
import { createHttpSolverClient, type SolverClient } from "./solver-client.js";

export interface AggregatorSolverConfig {
  solverId: string;
  name?: string;
  description?: string;
  /** The solver's OIF API root, ending in /api/v1; a function when the port is known only after listen. */
  baseUrl: string | (() => string);
}

export interface AggregatorConfig {
  solvers: AggregatorSolverConfig[];
  /** Key of the quote integrity HMAC. */
  integritySecret: string;
  /** Per-solver quote timeout (reference default 5000). */
  solverTimeoutMs?: number;
  /** Timeout of a whole quote round (reference default 10000). */
  globalTimeoutMs?: number;
  /** Timeout of forwarding an order to its solver. */
  orderTimeoutMs?: number;
  /** Timeout of one status refresh from the solver (reference 5000). */
  refreshTimeoutMs?: number;
  clock?: Clock;
}

export interface SupportedAsset {
  address: string;
  /** A decimal string for a Solana chain, whose OIF chain id is 256 bits (the solver's `chain_id`). */
  chainId: number | string;
  symbol: string;
  name: string;
  decimals: number;
}

export interface SolverEntry {
  config: AggregatorSolverConfig;
  client: SolverClient;
  createdAt: string;
  lastSeen?: string;
  assets: SupportedAsset[];
}

export interface StoredOrder {
  solverId: string;
  response: OrderResponse;
}

/** What the aggregator's parts share: its settings, its solvers and the orders it forwarded. */
export interface AggregatorState {
  config: AggregatorConfig;
  clock: Clock;
  solverTimeoutMs: number;
  globalTimeoutMs: number;
  orderTimeoutMs: number;
  refreshTimeoutMs: number;
  solvers: Map<string, SolverEntry>;
  orders: Map<string, StoredOrder>;
  /** The clock's now as an ISO 8601 string. */
  iso(): string;
}

export function createAggregatorState(config: AggregatorConfig): AggregatorState {
  const clock = config.clock ?? systemClock;
  const iso = () => new Date(clock.now()).toISOString();
  return {
    config,
    clock,
    solverTimeoutMs: config.solverTimeoutMs ?? 5000,
    globalTimeoutMs: config.globalTimeoutMs ?? 10_000,
    orderTimeoutMs: config.orderTimeoutMs ?? 10_000,
    refreshTimeoutMs: config.refreshTimeoutMs ?? 5000,
    solvers: new Map<string, SolverEntry>(
      config.solvers.map((s) => [
        s.solverId,
        { config: s, client: createHttpSolverClient({ baseUrl: s.baseUrl }), createdAt: iso(), assets: [] },
      ]),
    ),
    orders: new Map(),
    iso,
  };
}
