import type { SolverOrderResponse, SolverPostOrderResponse } from "../aggregator/oif-order.js";
import type { SolverQuote } from "../aggregator/oif-quote.js";
import type { GetQuoteRequest } from "../aggregator/oif-quote-request.js";
import { advanceSolanaSourceOrder } from "./advance-solana-source-order.js";
import { getSolanaSourceOrder } from "./get-solana-source-order.js";
import { terminal } from "./order-moves.js";
import { quoteSolanaSource } from "./quote-solana-source.js";
import { createSolanaSourceState, type SolanaSourceConfig } from "./solana-source-state.js";
import { submitSolanaSourceOrder } from "./submit-solana-source-order.js";

export type { SolanaSourceConfig };

/** The Solana → EVM side of a solver: its quotes, its orders and their work loop step. */
export interface SolanaSourceOrders {
  quote(request: GetQuoteRequest): Promise<SolverQuote>;
  /** Whether `quoteId` is one of this side's live quotes. */
  owns(quoteId: string): boolean;
  submit(request: { quoteId: string; signature?: unknown }): SolverPostOrderResponse;
  /** The order's status read, or undefined when the id is not a Solana-source order of this solver. */
  get(orderId: string): SolverOrderResponse | undefined;
  /** Moves every open order as far as it can go now; stops early once `running()` is false. */
  tick(running: () => boolean, onError: (orderId: string, error: unknown) => void): Promise<void>;
}

/**
 * Quotes `oif-svm-escrow-v0` orders and carries them out: the user's signed deposit gets the solver's
 * fee-payer signature and is sent to the Solana chain; once it landed the solver fills the output on
 * the EVM destination with its Solana key as the fill's solver, and the committee's release of the
 * vault to that key settles the order.
 */
export function createSolanaSourceOrders(config: SolanaSourceConfig): SolanaSourceOrders {
  const state = createSolanaSourceState(config);
  return {
    quote: (request) => quoteSolanaSource(state, request),
    owns: (quoteId) => state.quotes.has(quoteId),
    submit: (request) => submitSolanaSourceOrder(state, request),
    get: (orderId) => getSolanaSourceOrder(state, orderId),
    async tick(running, onError) {
      for (const record of state.orders.values()) {
        if (!running()) return;
        try {
          for (
            let moves = 0;
            moves < 8 && !terminal(record.status) && (await advanceSolanaSourceOrder(state, record));
            moves++
          );
        } catch (error) {
          onError(record.quote.escrowOrder.orderId, error);
        }
      }
    },
  };
}
