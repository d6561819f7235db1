import { HubError } from "@hub/contract";

export interface OrderService {
  submitOpenFor(request: { quoteRequestId: string; quoteId: string }): Promise<never>;
  createOrder(request: { quoteId: string }): Promise<never>;
}

/**
 * Submissions. No quote can exist yet (no provider is configured), so every quote reference is unknown:
 * POST /order answers EIN0010 as the spec says for an unknown quote; POST /order/openfor answers
 * EIN0001 with reference quoteId (docs/decisions/hub.md).
 */
export function createOrderService(): OrderService {
  return {
    async submitOpenFor() {
      throw new HubError("EIN0001", { reference: "quoteId", message: "Unknown quote: quote again." });
    },
    async createOrder() {
      throw new HubError("EIN0010", { message: "Unknown quote." });
    },
  };
}
