import { z } from "zod";

/** JSON Schema fragment as z.toJSONSchema writes it; only the keys the decode phase reads are typed. */
export interface JsonTypeSchema {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  properties?: Record<string, JsonTypeSchema>;
  items?: JsonTypeSchema;
  anyOf?: JsonTypeSchema[];
  oneOf?: JsonTypeSchema[];
  allOf?: JsonTypeSchema[];
  $ref?: string;
  $defs?: Record<string, JsonTypeSchema>;
}

/**
 * A rule on one field that needs the fields before it (struct order); it runs right after that
 * field's own schema passed with a value (never on an absent optional field), and a false answer
 * reports that field.
 */
export interface FieldRule<T> {
  readonly check: (value: unknown, before: Partial<T>) => boolean;
  readonly message: string;
}

/** One field of a request body: its wire name, its validator and the JSON types the decode phase admits. */
export interface RequestBodyField {
  readonly name: string;
  readonly schema: z.ZodType;
  readonly jsonType: JsonTypeSchema;
}

/**
 * A request body declared once: the zod object gives the OpenAPI schema, the decode phase (JSON types)
 * and the validate phase (fields in the object's shape order, then each field's rules).
 */
export interface RequestBodySchema<T> {
  readonly object: z.ZodObject;
  readonly fields: readonly RequestBodyField[];
  readonly rules: { readonly [K in keyof T]?: readonly FieldRule<T>[] };
  /** Phantom: the decoded type. */
  readonly _output?: T;
}

const FORBIDDEN_NAMES = new Set(["__proto__", "constructor", "prototype"]);

/** Declares a request body from a zod object (its shape order is the struct order) and optional cross-field rules. */
export function defineRequestBody<O extends z.ZodObject>(
  object: O,
  rules: { readonly [K in keyof z.output<O>]?: readonly FieldRule<z.output<O>>[] } = {},
): RequestBodySchema<z.output<O>> {
  const fields = Object.entries(object.shape).map(([name, schema]) => {
    if (FORBIDDEN_NAMES.has(name)) throw new Error(`request body field name ${name} is not allowed`);
    const zodSchema = schema as z.ZodType;
    const jsonType = z.toJSONSchema(zodSchema, { io: "input", unrepresentable: "any" }) as JsonTypeSchema;
    return { name, schema: zodSchema, jsonType };
  });
  for (const name of Object.keys(rules)) {
    if (!fields.some((field) => field.name === name)) throw new Error(`rule for unknown field ${name}`);
  }
  return { object, fields, rules };
}
