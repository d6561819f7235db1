import type { ChainFacts, ChainLogRef, FinalisedFact, OutputFilledFact } from "./chain-facts.js";
import { type ChainStatus, type ChainTrigger, nextChainStatus } from "./chain-status.js";
import { type StandardOrderRecord, sameMandateOutput } from "./standard-order-record.js";

export interface ChainFillView extends ChainLogRef {
  solver: string;
  /** RFC 3339 of the event's own timestamp. */
  filledAt: string;
  finalAmount: string;
  /** Index of the order output this fill delivers, or null when it matches none (or the order is unknown). */
  outputIndex: number | null;
  /** True when the fill matches an order output and lies at or before the order's fillDeadline. */
  inTime: boolean;
}

export interface ChainSettleView extends ChainLogRef {
  solver: string;
  destination: string;
}

/** The list entry's `chain` object and the fill view's facts, derived from indexed chain facts only. */
export interface ChainView {
  status: ChainStatus;
  onchainOrderId: string;
  open?: ChainLogRef;
  order?: StandardOrderRecord;
  fillDeadline?: string;
  expires?: string;
  fills: ChainFillView[];
  settle?: ChainSettleView;
  refund?: ChainLogRef;
  /** Every output filled in time, or the escrow finalised (which proves it). */
  filled: boolean;
  settled: boolean;
}

/** chainId (decimal string) → unix seconds of the newest block the reconciler has indexed on it. */
export type IndexedUntil = ReadonlyMap<string, number>;

function logRef(fact: ChainLogRef): ChainLogRef {
  return {
    chainDomain: fact.chainDomain,
    blockNumber: fact.blockNumber,
    blockHash: fact.blockHash,
    blockTimestamp: fact.blockTimestamp,
    txHash: fact.txHash,
    logIndex: fact.logIndex,
  };
}

function isoFromUnixSeconds(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}

function fillView(fill: OutputFilledFact, order: StandardOrderRecord | undefined): ChainFillView {
  const index = order ? order.outputs.findIndex((output) => sameMandateOutput(output, fill.output)) : -1;
  return {
    ...logRef(fill),
    solver: fill.solver,
    filledAt: isoFromUnixSeconds(fill.timestamp),
    finalAmount: fill.finalAmount,
    outputIndex: index === -1 ? null : index,
    inTime: index !== -1 && order !== undefined && fill.timestamp <= order.fillDeadline,
  };
}

function settleView(fact: FinalisedFact): ChainSettleView {
  return { ...logRef(fact), solver: fact.solver, destination: fact.destination };
}

function byChainPosition(a: ChainLogRef, b: ChainLogRef): number {
  if (a.chainDomain !== b.chainDomain) return a.chainDomain < b.chainDomain ? -1 : 1;
  return a.blockNumber - b.blockNumber || a.logIndex - b.logIndex;
}

/**
 * Folds the facts through nextChainStatus in one canonical order (fills, Open, closed fill window,
 * Finalised, Refunded), so the status depends on which facts are indexed and not on the order in
 * which the reconciler happened to index its chains. Undefined means no chain object.
 */
export function deriveChainView(facts: ChainFacts, indexedUntil: IndexedUntil): ChainView | undefined {
  const order = facts.open?.order;
  const fills = [...facts.fills].sort(byChainPosition).map((fill) => fillView(fill, order));
  const filledOutputs = new Set(fills.filter((fill) => fill.inTime).map((fill) => fill.outputIndex));
  // An order without outputs can never be finalised (finalise needs one solve per output, at least one).
  const outputs = order?.outputs ?? [];
  const outputsFilled = outputs.length > 0 && outputs.every((_, index) => filledOutputs.has(index));

  const triggers: ChainTrigger[] = fills.map(() => ({ kind: "fill-observed", outputsFilled: false }));
  if (order) {
    triggers.push({ kind: "open-observed", outputsFilled });
    const windowClosed = order.outputs.some((output, index) => {
      if (filledOutputs.has(index)) return false;
      const until = indexedUntil.get(output.chainId);
      return until !== undefined && until > order.fillDeadline;
    });
    if (windowClosed) triggers.push({ kind: "fill-window-closed" });
  }
  if (facts.finalised) triggers.push({ kind: "settle-observed" });
  if (facts.refunded) triggers.push({ kind: "refund-observed" });

  let status: ChainStatus | undefined;
  for (const trigger of triggers) status = nextChainStatus(status, trigger);
  if (status === undefined) return undefined;

  const view: ChainView = {
    status,
    onchainOrderId: facts.onchainOrderId,
    fills,
    filled: outputsFilled || facts.finalised !== undefined,
    settled: status === "SETTLED",
  };
  if (facts.open && order) {
    view.open = logRef(facts.open);
    view.order = order;
    view.fillDeadline = isoFromUnixSeconds(order.fillDeadline);
    view.expires = isoFromUnixSeconds(order.expires);
  }
  if (facts.finalised) view.settle = settleView(facts.finalised);
  if (facts.refunded) view.refund = logRef(facts.refunded);
  return view;
}
