import type { DevnetManifest } from "@hub/chain";
import { isSolanaAddress } from "@hub/contract";
import { z } from "zod";
import { oifProducts } from "../../lanes/lane-table.js";
import { providerFields } from "../provider-fields.js";
import { type OifDialect, oifDialects } from "./oif-dialects.js";

/**
 * An OIF upstream (aggregator or solver) the hub asks for quotes and forwards orders to; the dialect's
 * path prefix (`/v1` for the specification, `/api/v1` for the reference aggregator) is appended to baseUrl.
 */
export const oifProviderConfigSchema = z.object({
  ...providerFields,
  kind: z.literal("oif-aggregator"),
  /** How the upstream speaks: the published specification (default) or the reference aggregator. */
  dialect: z.enum(oifDialects).default("oif-spec-1"),
  /** The order types this provider may be asked for. */
  products: z.array(z.enum(oifProducts)).min(1).default(["oif-escrow-v0", "oif-3009-v0"]),
  /**
   * The Solana key (base58) each solver pays fees with on oif-svm-escrow-v0; an answer from a solver
   * without one, or naming another fee payer, is discarded (docs/decisions/solana-lane.md).
   */
  solanaFeePayers: z
    .record(
      z.string().regex(/^[A-Za-z0-9._-]{1,31}$/, "a solver id"),
      z.string().refine(isSolanaAddress, "a base58 Solana public key (32 bytes)"),
    )
    .optional(),
});

/** An OIF aggregator as configured, defaults optional (`kind` too: the registry's first kind). */
export type OifProviderConfigInput = Omit<z.input<typeof oifProviderConfigSchema>, "kind"> & {
  kind?: "oif-aggregator";
};
/** An OIF aggregator with every default filled in. */
export type OifProviderConfig = z.output<typeof oifProviderConfigSchema>;

/** Where a devnet mounts its OIF aggregator of each dialect. */
export const devnetAggregatorPaths: Readonly<Record<OifDialect, string>> = {
  "oif-spec-1": "/spec/aggregator",
  "oif-aggregator": "/aggregator",
};

/**
 * The provider for a devnet's OIF aggregator of the dialect asked for (the specification's by default):
 * `<devnetUrl>/spec/aggregator` or `<devnetUrl>/aggregator`.
 */
export function devnetProvider(
  devnetUrl: string,
  overrides: Partial<Omit<OifProviderConfigInput, "kind">> = {},
): OifProviderConfig {
  const dialect = overrides.dialect ?? "oif-spec-1";
  return oifProviderConfigSchema.parse({
    id: "devnet",
    kind: "oif-aggregator",
    baseUrl: `${devnetUrl.replace(/\/+$/, "")}${devnetAggregatorPaths[dialect]}`,
    ...overrides,
  });
}

/** The devnet's solver ids, in the order of the manifest's Solana solver keys. */
export const devnetSolverIds = ["alpha", "beta"] as const;

/**
 * Both of a devnet's OIF aggregators, so that every quote round asks in both dialects: `devnet` (the
 * specification's) and `devnet-reference` (the reference aggregator's), in front of the same solvers.
 * With a Solana chain in the manifest they also carry oif-svm-escrow-v0 and the solvers' fee payers
 * (alpha = `solana.solvers[0]`, beta = `[1]`).
 */
export function devnetProviders(
  devnetUrl: string,
  manifest: Pick<DevnetManifest, "solana"> = {},
): OifProviderConfig[] {
  const solvers = manifest.solana?.solvers ?? [];
  const solana: Partial<OifProviderConfigInput> =
    solvers.length === 0
      ? {}
      : {
          products: [...oifProducts],
          solanaFeePayers: Object.fromEntries(
            devnetSolverIds.flatMap((id, i) => (solvers[i] ? [[id, solvers[i].address]] : [])),
          ),
        };
  return [
    devnetProvider(devnetUrl, solana),
    devnetProvider(devnetUrl, { id: "devnet-reference", dialect: "oif-aggregator", ...solana }),
  ];
}
