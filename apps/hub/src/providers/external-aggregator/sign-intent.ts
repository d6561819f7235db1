import { formatUnits } from "viem";
import type { ExternalLane } from "../../lanes/lane-table.js";
import type { EvmRouteEnd } from "../../quotes/resolve-quote-route.js";

/** The facts signIntent states, one line each. */
export interface SignIntentFacts {
  lane: ExternalLane;
  quoteId: string;
  signableHash: string;
  /** Lowercase 0x address. */
  sourceAccount: string;
  input: { end: EvmRouteEnd; amount: bigint };
  output: { end: EvmRouteEnd; amount: bigint };
  recipient: string;
  expiresAt: string;
}

function amountLine(side: { end: EvmRouteEnd; amount: bigint }): string {
  const { asset } = side.end;
  return `${formatUnits(side.amount, asset.decimals)} ${asset.symbol} (${side.amount} base units of ${asset.key})`;
}

/**
 * The text the user personal_signs verbatim to register an external winner on POST /order: a title
 * naming the lane, then one `name: value` line per fact, joined by LF, no trailing newline.
 */
export function buildSignIntent(facts: SignIntentFacts): string {
  return [
    `Register ${facts.lane} order with the intent hub`,
    `quoteId: ${facts.quoteId}`,
    `signableHash: ${facts.signableHash}`,
    `sourceAccount: ${facts.sourceAccount}`,
    `pay: ${amountLine(facts.input)}`,
    `receive: ${amountLine(facts.output)}`,
    `recipient: ${facts.recipient}`,
    `expiresAt: ${facts.expiresAt}`,
  ].join("\n");
}
