import {
  HubError,
  type OnchainFill,
  type OnchainOrder,
  type OnchainRefund,
  type OnchainTxOrder,
} from "@hub/contract";
import { chainEventOf, watermarkOf } from "../onchain-views/wire-chain-view.js";
import type { ChainFactsStore } from "../store/chain-facts-store.js";
import { getOnchainFill } from "./onchain-service/get-onchain-fill.js";
import { getOnchainRefund } from "./onchain-service/get-onchain-refund.js";
import { createOnchainFacts } from "./onchain-service/onchain-facts.js";

export interface OnchainService {
  getFill(orderId: string): Promise<OnchainFill>;
  getOrderByTransaction(chainDomain: string, txHash: string): Promise<OnchainTxOrder>;
  getRefund(orderId: string, chainDomain: string | undefined): Promise<OnchainRefund>;
  getOrder(orderId: string): Promise<OnchainOrder>;
}

/**
 * On-chain views, from the reconciler's chain facts only (never from upstream reports): escrow orders by
 * their on-chain id, open-flow bridge transfers by their depositId (looked up only when no escrow fact
 * names the id). Ids are looked up exactly as sent: an uppercase or 0x-less id finds nothing. Without a
 * database nothing was ever indexed: every id is unknown and every chain domain has no watermark.
 */
export function createOnchainService(
  deps: { chainFacts?: ChainFactsStore | undefined } = {},
): OnchainService {
  const facts = createOnchainFacts(deps.chainFacts);
  const { store } = facts;

  return {
    getFill: (orderId) => getOnchainFill(facts, orderId),

    async getOrderByTransaction(chainDomain, txHash) {
      const watermark = store ? await store.getWatermark(chainDomain) : undefined;
      if (!store || !watermark) throw new HubError("EIN0051");
      const found = await store.findTransactionEvent(chainDomain, txHash);
      return {
        chainDomain,
        txHash,
        orderId: found?.onchainOrderId ?? null,
        event: found?.event ?? null,
        watermark: watermarkOf(watermark),
      };
    },

    getRefund: (orderId, chainDomain) => getOnchainRefund(facts, orderId, chainDomain),

    async getOrder(orderId) {
      const { views } = await facts.load(orderId);
      const open = views.get(orderId)?.facts.open;
      if (!open) throw new HubError("EIN0009", { message: "Order not found." });
      const { order } = open;
      return {
        orderId,
        chainDomain: open.chainDomain,
        settler: open.settler,
        order: {
          ...order,
          expires: String(order.expires),
          fillDeadline: String(order.fillDeadline),
          inputs: order.inputs.map(([token, amount]) => [token, amount] as [string, string]),
          outputs: order.outputs.map((output) => ({ ...output })),
        },
        openTx: chainEventOf(open),
      };
    },
  };
}
