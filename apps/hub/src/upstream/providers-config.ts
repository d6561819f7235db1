import type { DevnetManifest } from "@hub/chain";
import { isSolanaAddress } from "@hub/contract";
import { z } from "zod";
import { type OifDialect, oifDialects } from "./oif-dialects.js";

/** The OIF order types a provider can be asked for; each one is a lane of the hub. */
export const oifProducts = ["oif-escrow-v0", "oif-3009-v0", "oif-svm-escrow-v0"] as const;

/** One OIF order type. */
export type OifProduct = (typeof oifProducts)[number];

const providerFields = {
  /** Stable id; offers name it (`<id>.<solverId>`), so it holds no dot. */
  id: z.string().regex(/^[A-Za-z0-9_-]{1,32}$/, "1 to 32 of letters, digits, _ and -"),
  baseUrl: z.url({ protocol: /^https?$/ }).transform((url) => url.replace(/\/+$/, "")),
  /** Sent on every call (e.g. the hub's credential at that upstream). */
  headers: z.record(z.string(), z.string()).default({}),
  /** Per-call timeout; a quote round also stops at its own deadline. */
  timeoutMs: z.number().int().positive().max(60_000).default(5000),
  /** Keep-alive connections to this provider. */
  connections: z.number().int().positive().default(16),
  enabled: z.boolean().default(true),
};

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

/**
 * An external aggregator (open flow, solver-swap, transfer): `/quote` and `/quotes/{id}` are appended
 * to baseUrl. Its winners carry the transactions the user sends and complete through POST /order.
 */
export const externalProviderConfigSchema = z.object({
  ...providerFields,
  kind: z.literal("external-aggregator"),
});

/** One upstream provider; an entry without `kind` is an OIF aggregator (the first kind the hub had). */
export const providerConfigSchema = z.preprocess(
  (entry) =>
    typeof entry === "object" && entry !== null && !Array.isArray(entry) && !("kind" in entry)
      ? { ...entry, kind: "oif-aggregator" }
      : entry,
  z.discriminatedUnion("kind", [oifProviderConfigSchema, externalProviderConfigSchema]),
);

/** An OIF aggregator as configured, defaults optional (`kind` too). */
export type OifProviderConfigInput = Omit<z.input<typeof oifProviderConfigSchema>, "kind"> & {
  kind?: "oif-aggregator";
};
/** An external aggregator as configured, defaults optional. */
export type ExternalProviderConfigInput = z.input<typeof externalProviderConfigSchema>;
/** A provider as configured, defaults optional. */
export type ProviderConfigInput = OifProviderConfigInput | ExternalProviderConfigInput;
/** An OIF aggregator with every default filled in. */
export type OifProviderConfig = z.output<typeof oifProviderConfigSchema>;
/** An external aggregator with every default filled in. */
export type ExternalProviderConfig = z.output<typeof externalProviderConfigSchema>;
/** A provider with every default filled in. */
export type ProviderConfig = OifProviderConfig | ExternalProviderConfig;

/** The list of providers; ids are unique across kinds. */
export const providersConfigSchema = z
  .array(providerConfigSchema)
  .refine((list) => new Set(list.map((p) => p.id)).size === list.length, "provider ids must be unique");

/** Parses the providers list once; throws one error listing every problem. */
export function parseProvidersConfig(input: unknown): ProviderConfig[] {
  const parsed = providersConfigSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => `  providers.${issue.path.join(".")}: ${issue.message}`);
  throw new Error(`invalid providers configuration:\n${lines.join("\n")}`);
}

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

/** The devnet's external aggregator, mounted at `<devnetUrl>/external`. */
export function devnetExternalProvider(
  devnetUrl: string,
  overrides: Partial<Omit<ExternalProviderConfigInput, "kind">> = {},
): ExternalProviderConfig {
  return externalProviderConfigSchema.parse({
    id: "devnet-external",
    kind: "external-aggregator",
    baseUrl: `${devnetUrl.replace(/\/+$/, "")}/external`,
    ...overrides,
  });
}
