import type { SubmitOrderOutcome } from "../../providers/provider-kind.js";
import type { QuoteForSubmission } from "../../store/submission-store.js";
import { onchainOrderIdOf } from "../../submissions/onchain-order-id.js";
import type { ForwardEnding } from "../../submissions/reservation-rules.js";

/** What a forward's outcome means for its reservation: how it ended, why, and the order's on-chain id. */
export interface ForwardJudgement {
  ending: ForwardEnding;
  detail: string;
  onchainOrderId: `0x${string}` | undefined;
}

function endingOf(outcome: SubmitOrderOutcome): ForwardEnding {
  return outcome.kind === "accepted" ? { kind: "accepted" } : { kind: outcome.kind };
}

function detailOf(outcome: SubmitOrderOutcome): string {
  switch (outcome.kind) {
    case "accepted":
      return `accepted ${outcome.orderId}`;
    case "solver-rejected":
      return `SOLVER_REJECTED: ${outcome.message}`;
    case "rate-limited":
      return `upstream 429, Retry-After ${outcome.retryAfterSeconds ?? "none"}`;
    case "refused":
      return `upstream ${outcome.httpStatus} ${outcome.error ?? ""}: ${outcome.message}`;
    case "auth-refused":
      return `upstream ${outcome.httpStatus}: the hub's credential was refused`;
    case "not-sent":
    case "unknown":
      return outcome.cause;
  }
}

/** An acceptance is verifiable only with an on-chain id that matches the quote's own, when it has one. */
export function judgeForwardOutcome(
  outcome: SubmitOrderOutcome,
  quote: QuoteForSubmission,
): ForwardJudgement {
  let ending = endingOf(outcome);
  let detail = detailOf(outcome);
  let onchainOrderId: `0x${string}` | undefined;
  if (outcome.kind === "accepted") {
    onchainOrderId = onchainOrderIdOf(outcome.orderId);
    if (onchainOrderId === undefined) {
      ending = { kind: "accepted-unverifiable" };
      detail = `accepted, but the upstream order id ${JSON.stringify(outcome.orderId)} is not an on-chain id`;
    } else if (quote.onchainOrderId !== undefined && quote.onchainOrderId !== onchainOrderId) {
      ending = { kind: "accepted-unverifiable" };
      detail = `accepted as ${onchainOrderId}, but the quote's recomputed on-chain id is ${quote.onchainOrderId}`;
    }
  }
  return { ending, detail, onchainOrderId };
}
