import type { OnchainFill } from "@hub/contract";
import { loadBridgeTransfer } from "../../onchain-views/load-bridge-transfer.js";
import { wireBridgeFill } from "../../onchain-views/wire-bridge-transfer.js";
import { chainEventOf, watermarkOf, wireFills } from "../../onchain-views/wire-chain-view.js";
import type { OnchainFacts } from "./onchain-facts.js";

/** GET /onchain/fill: an escrow order's fills, or else a bridge transfer's, with the chains' watermarks. */
export async function getOnchainFill(facts: OnchainFacts, orderId: string): Promise<OnchainFill> {
  const { views, watermarks } = await facts.load(orderId);
  const loaded = views.get(orderId);
  if (!loaded) {
    const transfer = facts.store && (await loadBridgeTransfer(facts.store, orderId, watermarks));
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
}
