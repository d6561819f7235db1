import { HubError, type OnchainFill, type OnchainRefund } from "@hub/contract";

export interface OnchainService {
  getFill(orderId: string): Promise<OnchainFill>;
  getOrderByTransaction(chainDomain: string, txHash: string): Promise<never>;
  getRefund(orderId: string, chainDomain: string | undefined): Promise<OnchainRefund>;
  getOrder(orderId: string): Promise<never>;
}

/**
 * On-chain views. No chain has been read yet: no facts and no watermark exist. An id without facts
 * reads like not filled yet (spec, Identifiers) and has nothing to refund (no Open observed); a chain
 * domain without a watermark is EIN0051; a raw order tuple that was never observed is not found (EIN0009).
 */
export function createOnchainService(): OnchainService {
  return {
    async getFill(orderId) {
      return { orderId, filled: false, settled: false, status: null, fills: [], watermarks: [] };
    },
    async getOrderByTransaction() {
      throw new HubError("EIN0051");
    },
    async getRefund(orderId) {
      return { orderId, refundable: false, reason: "unknown-order" };
    },
    async getOrder() {
      throw new HubError("EIN0009", { message: "Order not found." });
    },
  };
}
