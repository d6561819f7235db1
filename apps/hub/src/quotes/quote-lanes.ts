import type { Lane } from "@hub/contract";
import type { OifProduct } from "../upstream/providers-config.js";

/**
 * The lanes quote rounds serve: the OIF order type that carries each, the scheme the upstream is asked
 * for (originSubmission), and what POST /order/openfor takes. The proxy lanes ask for a Permit2 escrow
 * order like oif-escrow-gasless, but the user opens it through the user proxy, so nothing is signed.
 */
export const quoteLanes = {
  "oif-escrow-gasless": { product: "oif-escrow-v0", scheme: "permit2", signatureScheme: "permit2" },
  "aggregator-gasless": { product: "oif-3009-v0", scheme: "eip3009", signatureScheme: "eip3009" },
  "oif-wrap-native": { product: "oif-escrow-v0", scheme: "permit2", signatureScheme: "none" },
  "oif-swap-token": { product: "oif-escrow-v0", scheme: "permit2", signatureScheme: "none" },
} as const satisfies Partial<
  Record<Lane, { product: OifProduct; scheme: string; signatureScheme: "permit2" | "eip3009" | "none" }>
>;

/** A lane a quote round serves. */
export type QuoteLane = keyof typeof quoteLanes;

/** The two lanes on which the user opens the escrow order through the user proxy. */
export type ProxyQuoteLane = "oif-wrap-native" | "oif-swap-token";

/** Whether an upstream order type is one of ours (some lane is carried by it). */
export function isQuoteProduct(product: unknown): boolean {
  return Object.values(quoteLanes).some((entry) => entry.product === product);
}

/** Every lane of the round is an OIF escrow lane: the input locked in the OIF escrow, a solver fills the output. */
export const OIF_ESCROW_EXECUTION_CLASS = "OIF_ESCROW";
