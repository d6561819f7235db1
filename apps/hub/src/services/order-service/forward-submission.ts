import { HubError, type OpenForAck } from "@hub/contract";
import { isUniqueViolation } from "@hub/store";
import type { SubmitOrderOutcome } from "../../providers/provider-kind.js";
import type { QuoteForSubmission, Reservation, SubmissionStore } from "../../store/submission-store.js";
import { firstUpstreamView } from "../../submissions/first-upstream-view.js";
import { type ForwardSettlement, settleForward } from "../../submissions/reservation-rules.js";
import { type ForwardJudgement, judgeForwardOutcome } from "./judge-forward-outcome.js";
import type { OrderServiceDeps } from "./order-service-deps.js";
import { openForAck, unknownOutcome } from "./submission-answers.js";

/** One attempt of a reservation, forwarded with the caller's signature under the caller's signal. */
export interface ForwardAttempt {
  store: SubmissionStore;
  quote: QuoteForSubmission;
  reservation: Reservation;
  /** The attempt follows the solver's decline (EIN0021) of the one before. */
  afterDecline: boolean;
  signature: string | undefined;
  signal: AbortSignal | undefined;
}

const REFUSAL_MESSAGES: Partial<Record<string, string>> = {
  EIN0021:
    "The solver declined the signed order; nothing was opened. Re-quote and sign again; do not re-post.",
  EIN0007: "Rejected: the upstream refused the registration.",
};

/** Writes the outcome to the attempt; undefined when the attempt was no longer the reservation's. */
async function settleForwardAttempt(
  deps: OrderServiceDeps,
  { store, quote, reservation }: ForwardAttempt,
  outcome: SubmitOrderOutcome,
  { detail, onchainOrderId }: ForwardJudgement,
  settlement: ForwardSettlement,
): Promise<Reservation | undefined> {
  const { hubOrderId: id, attempt } = reservation;
  const at = new Date(deps.clock.now());
  if (settlement.state !== "acked" || outcome.kind !== "accepted" || onchainOrderId === undefined) {
    return store.settle(id, attempt, {
      state: settlement.state as "unknown" | "refused" | "released",
      code: settlement.code ?? "EIN0050",
      detail,
    });
  }
  try {
    return await store.settle(id, attempt, {
      state: "acked",
      at,
      upstreamOrderId: outcome.orderId,
      onchainOrderId,
      onchainOrderIdSource: quote.onchainOrderId === undefined ? "upstream" : "verified",
      view: firstUpstreamView(at),
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    deps.logger.error(
      { hubOrderId: id, onchainOrderId },
      "upstream acked an on-chain id another submission holds",
    );
    const settled = await store.settle(id, attempt, {
      state: "unknown",
      code: "EIN0050",
      detail: `accepted as ${onchainOrderId}, which another submission holds`,
    });
    if (settled) throw new HubError("EIN0050");
    return settled;
  }
}

/** Forwards the stored upstream quote and answers from the outcome written to the attempt. */
export async function forwardSubmission(
  deps: OrderServiceDeps,
  forward: ForwardAttempt,
): Promise<OpenForAck> {
  const { store, quote, signature } = forward;
  const { hubOrderId: id, attempt } = forward.reservation;
  const upstream = deps.upstreamOf(quote.providerId);
  const outcome: SubmitOrderOutcome = upstream
    ? await upstream.submitOrder(
        { quoteResponse: quote.template.quoteResponse, ...(signature === undefined ? {} : { signature }) },
        forward.signal,
      )
    : { kind: "not-sent", cause: `provider ${quote.providerId} is not configured` };
  const judgement = judgeForwardOutcome(outcome, quote);
  const settlement = settleForward(judgement.ending, { afterDecline: forward.afterDecline });
  const settled = await settleForwardAttempt(deps, forward, outcome, judgement, settlement);
  if (!settled) {
    // An operator reconciled this attempt while it was under way: answer from what they decided.
    const current = await store.find(id);
    if (current?.state === "acked") return openForAck(current);
    throw unknownOutcome();
  }
  deps.logger.info(
    { hubOrderId: id, attempt, outcome: outcome.kind, state: settled.state, detail: judgement.detail },
    "submission forwarded",
  );
  if (settled.state === "acked") return openForAck(settled);
  const code = settlement.code ?? "EIN0050";
  throw new HubError(code, {
    ...(settlement.params ? { params: settlement.params } : {}),
    ...(REFUSAL_MESSAGES[code] ? { message: REFUSAL_MESSAGES[code] } : {}),
  });
}
