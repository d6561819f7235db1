import { type ExternalAggregatorState, findExternalQuote } from "./external-aggregator-state.js";
import type { ExternalTransferStatus } from "./external-quote.js";

/** A quote's transfer as the relayer saw it; only a bridge quote can complete. */
export function externalTransferStatus(
  state: ExternalAggregatorState,
  quoteId: string,
): ExternalTransferStatus {
  const quote = findExternalQuote(state, quoteId);
  if (quote.kind !== "bridge") return { quoteId, state: "not-completable" };
  const deposit = state.relayer.findByRef(quote.depositRef);
  if (!deposit) return { quoteId, state: "awaiting-deposit" };
  return {
    quoteId,
    state: deposit.state === "pending" ? "deposited" : deposit.state,
    depositId: deposit.depositId,
    depositTxHash: deposit.depositTxHash,
    ...(deposit.releaseTxHash ? { releaseTxHash: deposit.releaseTxHash } : {}),
    ...(deposit.state === "released" ? { releasedAmount: deposit.releaseAmount } : {}),
  };
}
