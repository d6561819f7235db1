import type { Lane } from "@hub/contract";
import type { OifProduct } from "../upstream/providers-config.js";

/** The lanes quote rounds serve, each with the OIF order type that carries it and the scheme asked for. */
export const quoteLanes = {
  "oif-escrow-gasless": { product: "oif-escrow-v0", scheme: "permit2" },
  "aggregator-gasless": { product: "oif-3009-v0", scheme: "eip3009" },
} as const satisfies Partial<Record<Lane, { product: OifProduct; scheme: string }>>;

/** A lane a quote round serves. */
export type QuoteLane = keyof typeof quoteLanes;

/** The lane an upstream order type names, if it is one of ours. */
export function laneOfProduct(product: unknown): QuoteLane | undefined {
  for (const [lane, entry] of Object.entries(quoteLanes)) {
    if (entry.product === product) return lane as QuoteLane;
  }
  return undefined;
}

/** Both lanes lock the input in the OIF escrow and a solver fills the output: one execution class. */
export const OIF_ESCROW_EXECUTION_CLASS = "OIF_ESCROW";
