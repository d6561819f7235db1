import type { OnchainRefund } from "@hub/contract";
import type { EscrowDepositFact } from "../../status-rules/chain-facts.js";
import type { ChainWatermark } from "../../store/chain-facts-store.js";
import type { LoadedChainView } from "../../onchain-views/load-chain-views.js";
import { chainEventOf } from "../../onchain-views/wire-chain-view.js";

/**
 * The refund view of a Solana escrow order. No program lets the user withdraw: the escrow's settler
 * refunds an unreleased deposit to the user once the chain's clock passes expires, so the step names
 * the settler's refund and the user signs nothing. Chain time is the newest indexed Solana
 * transaction's block time, which trails the chain: the view says refundable late, never early.
 */
export function solanaRefund(
  orderId: string,
  loaded: LoadedChainView,
  deposit: EscrowDepositFact,
  watermarks: readonly ChainWatermark[],
): OnchainRefund {
  const { view } = loaded;
  if (view.refund) {
    return {
      orderId,
      refundable: false,
      reason: "refunded",
      ...(deposit.terms ? { expiresAt: new Date(deposit.terms.expires * 1000).toISOString() } : {}),
      refundedTx: chainEventOf(view.refund),
    };
  }
  if (!view.open) return { orderId, refundable: false, reason: "unknown-order" };
  const terms = deposit.terms;
  const refund: OnchainRefund = { orderId, refundable: false, reason: "not-expired" };
  if (terms) refund.expiresAt = new Date(terms.expires * 1000).toISOString();
  if (view.settle) return { ...refund, reason: "settled" };
  refund.step = {
    chainDomain: deposit.chainDomain,
    sentBy: "escrow-settler",
    settler: deposit.settler,
    payee: deposit.user,
    memo: `refund:${orderId}`,
  };
  const chainTime = watermarks.find(
    (watermark) => watermark.chainDomain === deposit.chainDomain,
  )?.lastBlockTimestamp;
  if (terms && chainTime !== undefined && chainTime > terms.expires) {
    refund.refundable = true;
    refund.reason = "refundable";
  }
  return refund;
}
