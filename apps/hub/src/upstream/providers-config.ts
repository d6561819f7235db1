import { z } from "zod";

/** The OIF order types a provider can be asked for; each one is a lane of the hub. */
export const oifProducts = ["oif-escrow-v0", "oif-3009-v0"] as const;

/** One OIF order type. */
export type OifProduct = (typeof oifProducts)[number];

/** One upstream provider: an OIF aggregator the hub asks for quotes and forwards orders to. */
export const providerConfigSchema = z.object({
  /** Stable id; offers name it (`<id>.<solverId>`), so it holds no dot. */
  id: z.string().regex(/^[A-Za-z0-9_-]{1,32}$/, "1 to 32 of letters, digits, _ and -"),
  kind: z.literal("oif-aggregator"),
  /** Root of the aggregator's API: `/api/v1/...` is appended. */
  baseUrl: z.url({ protocol: /^https?$/ }).transform((url) => url.replace(/\/+$/, "")),
  /** Sent on every call (e.g. the hub's credential at that upstream). */
  headers: z.record(z.string(), z.string()).default({}),
  /** Per-call timeout; a quote round also stops at its own deadline. */
  timeoutMs: z.number().int().positive().max(60_000).default(5000),
  /** The order types this provider may be asked for. */
  products: z.array(z.enum(oifProducts)).min(1).default(["oif-escrow-v0", "oif-3009-v0"]),
  /** Keep-alive connections to this provider. */
  connections: z.number().int().positive().default(16),
  enabled: z.boolean().default(true),
});

/** A provider as configured, defaults optional. */
export type ProviderConfigInput = z.input<typeof providerConfigSchema>;
/** A provider with every default filled in. */
export type ProviderConfig = z.output<typeof providerConfigSchema>;

/** The list of providers; ids are unique. */
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

/** The provider for a devnet: its OIF aggregator is mounted at `<devnetUrl>/aggregator`. */
export function devnetProvider(
  devnetUrl: string,
  overrides: Partial<ProviderConfigInput> = {},
): ProviderConfig {
  return providerConfigSchema.parse({
    id: "devnet",
    kind: "oif-aggregator",
    baseUrl: `${devnetUrl.replace(/\/+$/, "")}/aggregator`,
    ...overrides,
  });
}
