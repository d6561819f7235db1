import type { OnchainRefund } from "@hub/contract";
import { familyRefundView } from "../../chains/chain-families.js";
import { loadBridgeTransfer } from "../../onchain-views/load-bridge-transfer.js";
import { refundStep } from "../../onchain-views/refund-step.js";
import { chainEventOf } from "../../onchain-views/wire-chain-view.js";
import type { OnchainFacts } from "./onchain-facts.js";

/** GET /onchain/refund: whether an order can be refunded yet, by the source chain's final block time. */
export async function getOnchainRefund(
  facts: OnchainFacts,
  orderId: string,
  chainDomain: string | undefined,
): Promise<OnchainRefund> {
  const { views, watermarks } = await facts.load(orderId);
  const loaded = views.get(orderId);
  const open = loaded?.facts.open;
  if (!loaded && facts.store) {
    const transfer = await loadBridgeTransfer(facts.store, orderId, watermarks);
    // chainDomain restricts the lookup to the source chain: the deposit's.
    const sourceDomain = transfer?.deposit?.chainDomain;
    if (transfer && (chainDomain === undefined || chainDomain === sourceDomain)) {
      return { orderId, refundable: false, reason: "no-refund" };
    }
  }
  const familyView = loaded && familyRefundView(orderId, loaded, chainDomain, watermarks);
  if (familyView) return familyView;
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
  // Chain time, not wall time: the escrow compares expires with the source chain's block timestamp,
  // and only a final block's time decides refundable.
  const sourceMark = watermarks.find((watermark) => watermark.chainDomain === open.chainDomain);
  const chainTime = sourceMark?.finalBlockTimestamp ?? sourceMark?.lastBlockTimestamp;
  if (chainTime === undefined || chainTime <= order.expires) return { ...refund, reason: "not-expired" };
  return { ...refund, refundable: true, step: refundStep(order, open.settler) };
}
