import { getAggregatorOrder, submitAggregatorOrder } from "./aggregator-orders.js";
import { aggregateQuotes } from "./aggregator-quotes.js";
import {
  type AggregatorHealth,
  aggregatorHealth,
  getSolver,
  listSolvers,
  type SolverInfo,
} from "./aggregator-solvers.js";
import { type AggregatorConfig, createAggregatorState } from "./aggregator-state.js";
import type { OrderResponse, PostOrderRequest } from "./oif-order.js";
import type { QuotesResponse } from "./oif-quote.js";
import type { AggregatorQuoteRequest } from "./oif-quote-request.js";

export type { AggregatorHealth, SolverInfo, SupportedAsset } from "./aggregator-solvers.js";
export type { AggregatorConfig, AggregatorSolverConfig } from "./aggregator-state.js";

export interface Aggregator {
  getQuotes(request: AggregatorQuoteRequest): Promise<QuotesResponse>;
  submitOrder(request: PostOrderRequest): Promise<OrderResponse>;
  getOrder(orderId: string): Promise<OrderResponse>;
  listSolvers(page?: number, pageSize?: number): Promise<{ solvers: SolverInfo[]; totalSolvers: number }>;
  getSolver(solverId: string): Promise<SolverInfo>;
  health(): Promise<AggregatorHealth>;
}

/** The devnet's OIF aggregator: fans quotes out to its solvers, signs them, forwards orders and refreshes status. */
export function createAggregator(config: AggregatorConfig): Aggregator {
  const state = createAggregatorState(config);
  return {
    getQuotes: (request) => aggregateQuotes(state, request),
    submitOrder: (request) => submitAggregatorOrder(state, request),
    getOrder: (orderId) => getAggregatorOrder(state, orderId),
    listSolvers: (page = 1, pageSize = 25) => listSolvers(state, page, pageSize),
    getSolver: (solverId) => getSolver(state, solverId),
    health: () => aggregatorHealth(state),
  };
}
