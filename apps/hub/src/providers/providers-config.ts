import { z } from "zod";
import { type ProviderConfig, providerKinds } from "./provider-registry.js";

export type { ProviderConfig, ProviderConfigInput } from "./provider-registry.js";

type SchemasOf<Kinds extends readonly unknown[]> = {
  [I in keyof Kinds]: Kinds[I] extends { configSchema: infer Schema } ? Schema : never;
};

/** One upstream provider; an entry without `kind` takes the registry's first kind (the first the hub had). */
export const providerConfigSchema = z.preprocess(
  (entry) =>
    typeof entry === "object" && entry !== null && !Array.isArray(entry) && !("kind" in entry)
      ? { ...entry, kind: providerKinds[0].kind }
      : entry,
  z.discriminatedUnion(
    "kind",
    providerKinds.map((kind) => kind.configSchema) as unknown as SchemasOf<typeof providerKinds>,
  ),
);

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
