import { z } from "zod";
import { providerFields } from "../provider-fields.js";

/**
 * An external aggregator (open flow, solver-swap, transfer): `/quote` and `/quotes/{id}` are appended
 * to baseUrl. Its winners carry the transactions the user sends and complete through POST /order.
 */
export const externalProviderConfigSchema = z.object({
  ...providerFields,
  kind: z.literal("external-aggregator"),
});

/** An external aggregator as configured, defaults optional. */
export type ExternalProviderConfigInput = z.input<typeof externalProviderConfigSchema>;
/** An external aggregator with every default filled in. */
export type ExternalProviderConfig = z.output<typeof externalProviderConfigSchema>;

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
