import type { OpenForAck, OrderCreateAck, OrderCreateRequest } from "@hub/contract";
import type { Caller } from "./caller.js";
import { createOrder } from "./order-service/create-order.js";
import type { OrderServiceDeps } from "./order-service/order-service-deps.js";
import { type OpenForRequest, submitOpenFor } from "./order-service/submit-open-for.js";

export type { OrderServiceDeps, OrderUpstream } from "./order-service/order-service-deps.js";

export interface OrderService {
  submitOpenFor(
    request: OpenForRequest,
    caller: Caller,
    signal: AbortSignal | undefined,
  ): Promise<OpenForAck>;
  createOrder(request: OrderCreateRequest, caller: Caller): Promise<OrderCreateAck>;
}

/**
 * Submissions. POST /order/openfor reserves the quote (one row per quote, unique) before anything is
 * forwarded, forwards the stored upstream quote with the signature under the caller's signal, and
 * writes the outcome to its own attempt of the reservation. POST /order registers an open-flow or
 * solver-swap winner in one insert after the spec's checks, in the spec's order (see createOrder).
 */
export function createOrderService(deps: OrderServiceDeps): OrderService {
  return {
    submitOpenFor: (request, caller, signal) => submitOpenFor(deps, request, caller, signal),
    createOrder: (request, caller) => createOrder(deps, request, caller),
  };
}
