import type { ChainEvent, Watermark, ChainView as WireChainView } from "@hub/contract";
import type { ChainLogRef } from "../status-rules/chain-facts.js";
import type { ChainWatermark } from "../store/chain-facts-store.js";
import type { LoadedChainView } from "./load-chain-views.js";

type WireChainFill = WireChainView["fills"][number];

/** An event without a block hash (a chain whose txHash is a transaction signature, blockNumber a slot) carries none. */
export function chainEventOf(ref: ChainLogRef): ChainEvent {
  return {
    chainDomain: ref.chainDomain,
    txHash: ref.txHash,
    blockNumber: ref.blockNumber,
    ...(ref.blockHash === "" ? {} : { blockHash: ref.blockHash }),
    logIndex: ref.logIndex,
    at: ref.blockTimestamp,
    ...(ref.final === undefined ? {} : { final: ref.final }),
  };
}

export function watermarkOf(watermark: ChainWatermark): Watermark {
  return {
    chainDomain: watermark.chainDomain,
    blockNumber: watermark.lastBlock,
    observedAt: watermark.updatedAt,
  };
}

function samePosition(a: ChainLogRef, b: ChainLogRef): boolean {
  return a.chainDomain === b.chainDomain && a.blockNumber === b.blockNumber && a.logIndex === b.logIndex;
}

/** The fills as the wire carries them; the recipient is the emitted output's, from the indexed fact. */
export function wireFills(loaded: LoadedChainView): WireChainFill[] {
  return loaded.view.fills.map((fill) => {
    const fact = loaded.facts.fills.find((candidate) => samePosition(candidate, fill));
    if (!fact) throw new Error(`fill ${fill.txHash}:${fill.logIndex} has no indexed fact`);
    return {
      ...chainEventOf(fill),
      amount: fill.finalAmount,
      recipient: fact.output.recipient,
      solver: fill.solver,
      at: fill.filledAt,
      outputIndex: fill.outputIndex,
      inTime: fill.inTime,
    };
  });
}

/** The list entry's `chain` object: observed facts only. */
export function wireChainView(loaded: LoadedChainView): WireChainView {
  const { view } = loaded;
  const wire: WireChainView = { status: view.status, fills: wireFills(loaded) };
  if (view.open) wire.openTx = chainEventOf(view.open);
  if (view.settle) wire.settledTx = chainEventOf(view.settle);
  if (view.refund) wire.refundedTx = chainEventOf(view.refund);
  if (view.fillDeadline) wire.fillDeadline = view.fillDeadline;
  if (view.expires) wire.expires = view.expires;
  if (view.sponsor) wire.sponsor = view.sponsor;
  return wire;
}
