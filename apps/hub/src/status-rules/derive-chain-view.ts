import type {
  ChainFacts,
  ChainLogRef,
  FinalisedFact,
  OutputFilledFact,
  EscrowDepositFact,
} from "./chain-facts.js";
import { type ChainStatus, type ChainTrigger, nextChainStatus } from "./chain-status.js";
import {
  type MandateOutputRecord,
  type StandardOrderRecord,
  sameMandateOutput,
} from "./standard-order-record.js";

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
  /** The escrow Open, or the vault escrow's deposit. */
  open?: ChainLogRef;
  /** The StandardOrder of an EVM escrow's Open; absent for a vault escrow order. */
  order?: StandardOrderRecord;
  /** The order's user on its source chain (an EVM address, or a key in its family's own form). */
  sponsor?: string;
  /** The OIF chain ids of the order's outputs (empty while the order's terms are unknown). */
  outputChainIds: string[];
  fillDeadline?: string;
  expires?: string;
  fills: ChainFillView[];
  settle?: ChainSettleView;
  refund?: ChainLogRef;
  /** Every output filled in time, or the escrow finalised (which proves it). */
  filled: boolean;
  settled: boolean;
}

/**
 * chainId (decimal string) → unix seconds of the newest final block the reconciler has indexed on it
 * (EXPIRED is decided only from final blocks).
 */
export type IndexedUntil = ReadonlyMap<string, number>;

/**
 * chainDomain → the newest final block indexed on it. A chain absent from the map (a chain read only at
 * its final commitment, or a watermark from before finality was tracked) has every indexed block
 * final; no map at all: every fact is final.
 */
export type FinalBlocks = ReadonlyMap<string, number>;

function isFinal(fact: ChainLogRef, finalBlocks: FinalBlocks | undefined): boolean {
  const finalBlock = finalBlocks?.get(fact.chainDomain);
  return finalBlock === undefined || fact.blockNumber <= finalBlock;
}

function logRef(fact: ChainLogRef, finalBlocks?: FinalBlocks): ChainLogRef {
  return {
    chainDomain: fact.chainDomain,
    blockNumber: fact.blockNumber,
    blockHash: fact.blockHash,
    blockTimestamp: fact.blockTimestamp,
    txHash: fact.txHash,
    logIndex: fact.logIndex,
    ...(finalBlocks ? { final: isFinal(fact, finalBlocks) } : {}),
  };
}

function isoFromUnixSeconds(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}

/** What the status rules need of an order: its outputs and deadlines, from whichever escrow opened it. */
interface OrderTerms {
  outputs: readonly MandateOutputRecord[];
  fillDeadline: number;
  expires: number;
  sponsor: string;
}

/** A vault deposit counts as the open only when it matches the terms the order id commits to (if known). */
function depositOpen(deposit: EscrowDepositFact | undefined): EscrowDepositFact | undefined {
  const terms = deposit?.terms;
  if (!deposit || !terms) return deposit;
  const matches =
    deposit.user === terms.user && deposit.mint === terms.mint && deposit.amount === terms.amount;
  return matches ? deposit : undefined;
}

function termsOf(facts: ChainFacts): OrderTerms | undefined {
  const order = facts.open?.order;
  if (order) {
    return {
      outputs: order.outputs,
      fillDeadline: order.fillDeadline,
      expires: order.expires,
      sponsor: order.user,
    };
  }
  const terms = depositOpen(facts.escrowDeposit)?.terms;
  if (!terms) return undefined;
  return {
    outputs: [terms.output],
    fillDeadline: terms.fillDeadline,
    expires: terms.expires,
    sponsor: terms.user,
  };
}

function fillView(
  fill: OutputFilledFact,
  terms: OrderTerms | undefined,
  finalBlocks: FinalBlocks | undefined,
): ChainFillView {
  const index = terms ? terms.outputs.findIndex((output) => sameMandateOutput(output, fill.output)) : -1;
  return {
    ...logRef(fill, finalBlocks),
    solver: fill.solver,
    filledAt: isoFromUnixSeconds(fill.timestamp),
    finalAmount: fill.finalAmount,
    outputIndex: index === -1 ? null : index,
    inTime: index !== -1 && terms !== undefined && fill.timestamp <= terms.fillDeadline,
  };
}

function settleView(fact: FinalisedFact, finalBlocks: FinalBlocks | undefined): ChainSettleView {
  return { ...logRef(fact, finalBlocks), solver: fact.solver, destination: fact.destination };
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
export function deriveChainView(
  facts: ChainFacts,
  indexedUntil: IndexedUntil,
  finalBlocks?: FinalBlocks,
): ChainView | undefined {
  const order = facts.open?.order;
  const deposit = order ? undefined : depositOpen(facts.escrowDeposit);
  const open = facts.open ?? deposit;
  const terms = termsOf(facts);
  const fills = [...facts.fills].sort(byChainPosition).map((fill) => fillView(fill, terms, finalBlocks));
  const filledOutputs = new Set(fills.filter((fill) => fill.inTime).map((fill) => fill.outputIndex));
  // An order without outputs can never be finalised (finalise needs one solve per output, at least one).
  const outputs = terms?.outputs ?? [];
  const outputsFilled = outputs.length > 0 && outputs.every((_, index) => filledOutputs.has(index));

  const triggers: ChainTrigger[] = fills.map(() => ({ kind: "fill-observed", outputsFilled: false }));
  if (open) {
    triggers.push({ kind: "open-observed", outputsFilled });
    const windowClosed = terms?.outputs.some((output, index) => {
      if (filledOutputs.has(index)) return false;
      const until = indexedUntil.get(output.chainId);
      return until !== undefined && until > terms.fillDeadline;
    });
    if (windowClosed) triggers.push({ kind: "fill-window-closed" });
  }
  // Terminal states come only from final blocks: a Finalised or Refunded that may still be
  // reorganised away is shown (marked not final) but moves nothing.
  if (facts.finalised && isFinal(facts.finalised, finalBlocks)) triggers.push({ kind: "settle-observed" });
  if (facts.refunded && isFinal(facts.refunded, finalBlocks)) triggers.push({ kind: "refund-observed" });

  let status: ChainStatus | undefined;
  for (const trigger of triggers) status = nextChainStatus(status, trigger);
  if (status === undefined) return undefined;

  const view: ChainView = {
    status,
    onchainOrderId: facts.onchainOrderId,
    outputChainIds: outputs.map((output) => output.chainId),
    fills,
    filled: outputsFilled || facts.finalised !== undefined,
    settled: status === "SETTLED",
  };
  if (open) view.open = logRef(open, finalBlocks);
  if (order) view.order = order;
  if (terms) {
    view.sponsor = terms.sponsor;
    view.fillDeadline = isoFromUnixSeconds(terms.fillDeadline);
    view.expires = isoFromUnixSeconds(terms.expires);
  } else if (deposit) {
    view.sponsor = deposit.user;
  }
  if (facts.finalised) view.settle = settleView(facts.finalised, finalBlocks);
  if (facts.refunded) view.refund = logRef(facts.refunded, finalBlocks);
  return view;
}
