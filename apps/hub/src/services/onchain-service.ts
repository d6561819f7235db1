import { HubError } from "@hub/contract";

export interface OnchainFill {
  orderId: string;
  filled: boolean;
  settled: boolean;
}

export interface OnchainRefund {
  orderId: string;
  refundable: boolean;
}

export interface OnchainService {
  getFill(orderId: string): Promise<OnchainFill>;
  getOrderByTransaction(chainDomain: string, txHash: string): Promise<never>;
  getRefund(orderId: string): Promise<OnchainRefund>;
  getOrder(orderId: string): Promise<never>;
}

/**
 * On-chain views. No chain has been read yet: no facts and no watermark exist. An id without facts
 * reads like not filled yet (spec, Identifiers) and has nothing to refund; a chain domain without a
 * watermark is EIN0051; a raw order tuple that was never observed is not found (EIN0009).
 */
export function createOnchainService(): OnchainService {
  return {
    async getFill(orderId) {
      return { orderId, filled: false, settled: false };
    },
    async getOrderByTransaction() {
      throw new HubError("EIN0051");
    },
    async getRefund(orderId) {
      return { orderId, refundable: false };
    },
    async getOrder() {
      throw new HubError("EIN0009", { message: "Order not found." });
    },
  };
}
