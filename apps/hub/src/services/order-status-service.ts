import { HubError, type OrdersList } from "@hub/contract";

export interface OrderStatusService {
  getOrderStatus(orderId: string): Promise<never>;
  getHubStatus(orderId: string): Promise<never>;
  listOrders(request: {
    organization: string;
    subject: string;
    cursor?: string;
    limit: number;
  }): Promise<OrdersList>;
}

/** Status reads. No order has been recorded yet, so every id is unknown (EIN0009) and every list empty. */
export function createOrderStatusService(): OrderStatusService {
  return {
    async getOrderStatus() {
      throw new HubError("EIN0009", { message: "Order not found." });
    },
    async getHubStatus() {
      throw new HubError("EIN0009", { message: "Order not found." });
    },
    async listOrders(request) {
      return { subject: request.subject, orders: [], nextCursor: null };
    },
  };
}
