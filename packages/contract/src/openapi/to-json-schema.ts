import { z } from "zod";

export type JsonObject = Record<string, unknown>;

export const COMPONENT_REF = "#/components/schemas/";

/** The schemas as properties of one JSON Schema object, their shared definitions under `$defs` pointing at the components. */
export function toJsonSchema(schemas: Record<string, z.ZodType>, io: "input" | "output"): JsonObject {
  const doc = z.toJSONSchema(z.object(schemas), {
    io,
    unrepresentable: "any",
    target: "draft-2020-12",
    override: ({ zodSchema, jsonSchema }) => {
      const def = zodSchema._zod.def as { type: string; catchall?: { _zod: { def: { type: string } } } };
      // Answers may gain fields (clients ignore unknown ones, as the hub does in bodies); only a strict object stays closed.
      if (def.type === "object" && def.catchall?._zod.def.type !== "never")
        delete jsonSchema.additionalProperties;
      // What a client sends: a default makes generators require the field; the description names it.
      if (io === "input") delete jsonSchema.default;
    },
  });
  const json = JSON.parse(JSON.stringify(doc).replaceAll('"#/$defs/', `"${COMPONENT_REF}`)) as JsonObject;
  if (io === "input") admitNullOnOptionalFields(json);
  return json;
}

/**
 * The body decoder reads a JSON null as an absent field (Go's decoder, spec Common rule 4: bodies are
 * decoded leniently), so an optional field admits null; a required one is refused as missing.
 */
function admitNullOnOptionalFields(node: unknown): void {
  if (typeof node !== "object" || node === null) return;
  for (const value of Object.values(node)) admitNullOnOptionalFields(value);
  if (Array.isArray(node)) return;
  const schema = node as JsonObject;
  const properties = schema.properties as Record<string, JsonObject> | undefined;
  if (schema.type !== "object" || !properties) return;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  for (const [name, property] of Object.entries(properties)) {
    if (required.has(name)) continue;
    const { description, ...rest } = property;
    properties[name] = {
      ...(description === undefined ? {} : { description }),
      anyOf: [rest, { type: "null", description: "Read as absent." }],
    };
  }
}
