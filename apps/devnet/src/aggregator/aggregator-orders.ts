import { AggregatorError } from "./aggregator-error.js";
import { solverOrThrow } from "./aggregator-solvers.js";
import type { AggregatorState } from "./aggregator-state.js";
import { verifyIntegrityChecksum } from "./integrity-checksum.js";
import {
  type AssetAmount,
  isFinalStatus,
  type OrderResponse,
  type PostOrderRequest,
  type SolverOrderResponse,
} from "./oif-order.js";
import { SolverHttpError } from "./solver-client.js";

function normaliseOrderId(id: string): string {
  return id.toLowerCase().replace(/^0x/, "");
}

/** Checks a signed quote's integrity and expiry and forwards its order to the solver that gave it. */
export async function submitAggregatorOrder(
  state: AggregatorState,
  request: PostOrderRequest,
): Promise<OrderResponse> {
  const quote = request.quoteResponse;
  if (quote.integrityChecksum.length === 0)
    throw new AggregatorError(400, "VALIDATION_ERROR", "Invalid request: integrityChecksum is required");
  if (!verifyIntegrityChecksum(state.config.integritySecret, quote))
    throw new AggregatorError(500, "INTERNAL_ERROR", "quote integrity verification failed");
  if (quote.validUntil !== undefined && Math.floor(state.clock.now() / 1000) > quote.validUntil)
    throw new AggregatorError(400, "QUOTE_EXPIRED", `Quote ${quote.quoteId} expired at ${quote.validUntil}`);
  const entry = solverOrThrow(state, quote.solverId);
  const signature = request.signature && request.signature !== "0x" ? request.signature : undefined;

  let answer: unknown;
  try {
    answer = await entry.client.submitOrder(
      {
        order: quote.order,
        ...(signature ? { signature } : {}),
        quoteId: quote.quoteId,
        ...(request.originSubmission ? { originSubmission: request.originSubmission } : {}),
        ...(request.metadata !== undefined ? { metadata: request.metadata } : {}),
      },
      AbortSignal.timeout(state.orderTimeoutMs),
    );
  } catch (error) {
    if (error instanceof SolverHttpError) {
      if (error.refusedOrder())
        throw new AggregatorError(
          422,
          "SOLVER_REJECTED",
          error.errorMessage() ?? "solver rejected the order",
        );
      if (error.statusCode === 429)
        throw new AggregatorError(
          429,
          "RATE_LIMITED",
          `solver ${quote.solverId} is rate limiting`,
          error.retryAfter ? { "retry-after": error.retryAfter } : {},
        );
      throw new AggregatorError(
        502,
        "SOLVER_ADAPTER_ERROR",
        `OIF order endpoint returned status ${error.statusCode} with body ${error.body}`,
      );
    }
    throw new AggregatorError(
      502,
      "SOLVER_ADAPTER_ERROR",
      `OIF order endpoint unreachable: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const solverOrderId = (answer as { orderId?: unknown })?.orderId;
  if (typeof solverOrderId !== "string" || solverOrderId.length === 0)
    throw new AggregatorError(502, "SOLVER_ADAPTER_ERROR", "solver accepted the order without an orderId");
  const orderId = normaliseOrderId(solverOrderId);
  const existing = state.orders.get(orderId);
  if (existing) return existing.response;

  const now = state.iso();
  const amounts = (items: { asset: string; amount?: string }[]): AssetAmount[] =>
    items.map((i) => ({ asset: i.asset, ...(i.amount !== undefined ? { amount: i.amount } : {}) }));
  const response: OrderResponse = {
    orderId,
    status: "created",
    quoteId: quote.quoteId,
    createdAt: now,
    updatedAt: now,
    inputAmounts: amounts(quote.preview.inputs),
    outputAmounts: amounts(quote.preview.outputs),
    orderType: quote.order.type,
    settlement: { type: "escrow", data: {} },
    fillTransaction: null,
  };
  state.orders.set(orderId, { solverId: entry.config.solverId, response });
  return response;
}

/** The stored order, refreshed from its solver until its status is final. */
export async function getAggregatorOrder(state: AggregatorState, id: string): Promise<OrderResponse> {
  const stored = state.orders.get(normaliseOrderId(id));
  if (!stored) throw new AggregatorError(404, "ORDER_NOT_FOUND", `Order not found: ${id}`);
  if (isFinalStatus(stored.response.status)) return stored.response;
  const entry = solverOrThrow(state, stored.solverId);
  try {
    const fresh = (await entry.client.getOrder(
      stored.response.orderId,
      AbortSignal.timeout(state.refreshTimeoutMs),
    )) as Partial<SolverOrderResponse>;
    if (fresh && typeof fresh === "object" && "status" in fresh) {
      stored.response = {
        ...stored.response,
        status: fresh.status,
        inputAmounts: fresh.inputAmounts ?? stored.response.inputAmounts,
        outputAmounts: fresh.outputAmounts ?? stored.response.outputAmounts,
        settlement: fresh.settlement ?? stored.response.settlement,
        fillTransaction: fresh.fillTransaction ?? null,
        updatedAt: state.iso(),
      };
      entry.lastSeen = state.iso();
    }
  } catch {
    // The reference serves the last stored order when a refresh fails.
  }
  return stored.response;
}
