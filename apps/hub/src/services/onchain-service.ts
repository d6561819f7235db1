import {
  HubError,
  type OnchainFill,
  type OnchainOrder,
  type OnchainRefund,
  type OnchainTxOrder,
} from "@hub/contract";
import { loadBridgeTransfer } from "../onchain-views/load-bridge-transfer.js";
import { type LoadedChainViews, loadChainViews } from "../onchain-views/load-chain-views.js";
import { refundStep } from "../onchain-views/refund-step.js";
import { solanaRefund } from "../onchain-views/solana-refund.js";
import { wireBridgeFill } from "../onchain-views/wire-bridge-transfer.js";
import { chainEventOf, watermarkOf, wireFills } from "../onchain-views/wire-chain-view.js";
import type { ChainFactsStore } from "../store/chain-facts-store.js";

export interface OnchainService {
  getFill(orderId: string): Promise<OnchainFill>;
  getOrderByTransaction(chainDomain: string, txHash: string): Promise<OnchainTxOrder>;
  getRefund(orderId: string, chainDomain: string | undefined): Promise<OnchainRefund>;
  getOrder(orderId: string): Promise<OnchainOrder>;
}

const noFacts: LoadedChainViews = { views: new Map(), watermarks: [] };

/**
 * On-chain views, from the reconciler's chain facts only (never from upstream reports): escrow orders by
 * their on-chain id, open-flow bridge transfers by their depositId (looked up only when no escrow fact
 * names the id). Ids are looked up exactly as sent: an uppercase or 0x-less id finds nothing. Without a
 * database nothing was ever indexed: every id is unknown and every chain domain has no watermark.
 */
export function createOnchainService(
  deps: { chainFacts?: ChainFactsStore | undefined } = {},
): OnchainService {
  const store = deps.chainFacts;
  const load = (orderId: string) => (store ? loadChainViews(store, [orderId]) : Promise.resolve(noFacts));

  return {
    async getFill(orderId) {
      const { views, watermarks } = await load(orderId);
      const loaded = views.get(orderId);
      if (!loaded) {
        const transfer = store && (await loadBridgeTransfer(store, orderId, watermarks));
        if (transfer) return wireBridgeFill(transfer, watermarks);
        return { orderId, filled: false, settled: false, status: null, fills: [], watermarks: [] };
      }
      const { view } = loaded;
      const chainIds = new Set(view.outputChainIds);
      if (view.order) chainIds.add(view.order.originChainId);
      const domains = new Set(
        [...view.fills, view.open, view.settle, view.refund].map((ref) => ref?.chainDomain),
      );
      const fill: OnchainFill = {
        orderId,
        filled: view.filled,
        settled: view.settled,
        status: view.status,
        fills: wireFills(loaded),
        watermarks: watermarks
          .filter((watermark) => chainIds.has(watermark.oifChainId) || domains.has(watermark.chainDomain))
          .map(watermarkOf),
      };
      if (view.open) fill.openTx = chainEventOf(view.open);
      if (view.settle) fill.settledTx = chainEventOf(view.settle);
      if (view.refund) fill.refundedTx = chainEventOf(view.refund);
      return fill;
    },

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

    async getRefund(orderId, chainDomain) {
      const { views, watermarks } = await load(orderId);
      const loaded = views.get(orderId);
      const open = loaded?.facts.open;
      if (!loaded && store) {
        const transfer = await loadBridgeTransfer(store, orderId, watermarks);
        // chainDomain restricts the lookup to the source chain: the deposit's.
        const sourceDomain = transfer?.deposit?.chainDomain;
        if (transfer && (chainDomain === undefined || chainDomain === sourceDomain)) {
          return { orderId, refundable: false, reason: "no-refund" };
        }
      }
      const deposit = loaded?.facts.solanaDeposit;
      if (loaded && !open && deposit && (chainDomain === undefined || deposit.chainDomain === chainDomain)) {
        return solanaRefund(orderId, loaded, deposit, watermarks);
      }
      if (!loaded || !open || (chainDomain !== undefined && open.chainDomain !== chainDomain)) {
        return { orderId, refundable: false, reason: "unknown-order" };
      }
      const { order } = open;
      const refund: OnchainRefund = {
        orderId,
        refundable: false,
        reason: "refundable",
        expiresAt: new Date(order.expires * 1000).toISOString(),
      };
      if (loaded.view.refund) {
        refund.reason = "refunded";
        refund.refundedTx = chainEventOf(loaded.view.refund);
        return refund;
      }
      if (loaded.view.settle) return { ...refund, reason: "settled" };
      // Chain time, not wall time: the escrow compares expires with the source chain's block timestamp.
      const chainTime = watermarks.find(
        (watermark) => watermark.chainDomain === open.chainDomain,
      )?.lastBlockTimestamp;
      if (chainTime === undefined || chainTime <= order.expires) return { ...refund, reason: "not-expired" };
      return { ...refund, refundable: true, step: refundStep(order, open.settler) };
    },

    async getOrder(orderId) {
      const { views } = await load(orderId);
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
