import { canonicalSha256 } from "@hub/contract";
import type { ExternalLane } from "../../lanes/lane-table.js";

/** One side of an external winner: where, what and how much (base units). */
export interface OpenFlowLeg {
  chainDomain: string;
  chainId: number;
  /** CAIP-19 asset key, as in the catalog. */
  asset: string;
  amount: string;
}

/** The bridge deposit the open-flow step makes, read from its calldata: how the reconciler finds it. */
export interface OpenFlowDeposit {
  /** Lowercase 0x addresses. */
  bridge: `0x${string}`;
  token: `0x${string}`;
  amount: string;
  destinationChainId: number;
  recipient: `0x${string}`;
  /** The bytes32 the deposit carries (the Deposited event's ref). */
  ref: `0x${string}`;
}

/**
 * What the hub stores with an external aggregator's winner (open flow, solver-swap, transfer) for
 * POST /order and GET /status/{orderId}. Never shown to the client.
 */
export interface OpenFlowTemplate {
  version: 1;
  kind: "external";
  lane: ExternalLane;
  providerId: string;
  solverId: string;
  upstreamQuoteId: string;
  /** The external quote exactly as received. */
  quoteResponse: unknown;
  /** The winner's disclosure.signableHash: POST /order's artifactHash must equal it. */
  signableHash: `0x${string}`;
  /** The text the user personal_signs verbatim; absent when the hub could not build it. */
  signIntent?: string;
  /** Lowercase; absent when the quote was requested without sourceAccount (no signed POST /order then). */
  sourceAccount?: `0x${string}`;
  recipient: `0x${string}`;
  source: OpenFlowLeg;
  destination: OpenFlowLeg;
  /** Open flow only. */
  deposit?: OpenFlowDeposit;
  /** openFlowTemplateFingerprint of the rest: re-approval on POST /order recomputes and compares it. */
  fingerprint: string;
}

/** SHA-256 (lowercase hex) of the canonical JSON of a template without its fingerprint. */
export function openFlowTemplateFingerprint(template: Omit<OpenFlowTemplate, "fingerprint">): string {
  const { fingerprint: _ignored, ...rest } = template as OpenFlowTemplate;
  return canonicalSha256(rest);
}

/** Whether a stored template is an external winner's (else it is an OIF lane's QuoteTemplate). */
export function isOpenFlowTemplate(
  template: Record<string, unknown>,
): template is OpenFlowTemplate & Record<string, unknown> {
  return template.kind === "external";
}
