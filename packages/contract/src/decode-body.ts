import type { z } from "zod";
import { HubError } from "./hub-error.js";
import type { JsonTypeSchema, RequestBodySchema } from "./request-body-schema.js";

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function resolve(schema: JsonTypeSchema, root: JsonTypeSchema): JsonTypeSchema {
  if (!schema.$ref) return schema;
  const name = schema.$ref.replace(/^#\/\$defs\//, "");
  return root.$defs?.[name] ?? {};
}

function typeMatches(type: string, value: unknown): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return typeof value === "number" && Number.isSafeInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "object":
      return isPlainObject(value);
    case "array":
      return Array.isArray(value);
    case "null":
      return value === null;
    default:
      return true;
  }
}

/** Go's decoder semantics: null decodes into anything as "absent"; otherwise the JSON type must match, nested included. */
function decodes(schema: JsonTypeSchema, value: unknown, root: JsonTypeSchema): boolean {
  if (value === null) return true;
  const s = resolve(schema, root);
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) return alternatives.some((alt) => decodes(alt, value, root));
  if (s.allOf && !s.allOf.every((part) => decodes(part, value, root))) return false;
  if (s.const !== undefined && s.type === undefined) return typeof value === typeof s.const;
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? s.type : [s.type];
    const matched = types.find((type) => typeMatches(type, value));
    if (matched === undefined) return false;
  }
  if (isPlainObject(value) && s.properties) {
    for (const [name, property] of Object.entries(s.properties)) {
      if (Object.hasOwn(value, name) && !decodes(property, value[name], root)) return false;
    }
  }
  if (Array.isArray(value) && s.items)
    return value.every((item) => decodes(s.items as JsonTypeSchema, item, root));
  return true;
}

/** Known fields only, null read as absent, recursively; unknown keys (`__proto__` included) never get through. */
function withoutNulls(schema: JsonTypeSchema, value: unknown, root: JsonTypeSchema): unknown {
  const s = resolve(schema, root);
  if (Array.isArray(value)) return value.map((item) => (s.items ? withoutNulls(s.items, item, root) : item));
  if (!isPlainObject(value) || !s.properties) return value;
  const out: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(s.properties)) {
    if (!Object.hasOwn(value, name) || value[name] === null) continue;
    Object.defineProperty(out, name, {
      value: withoutNulls(property, value[name], root),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

function firstIssueMessage(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "is invalid";
  if (issue.code === "invalid_type" && issue.input === undefined) return "is required";
  return issue.message;
}

/**
 * Decodes a parsed JSON value into a request body, like a Go struct decoder followed by a struct validator.
 * Decode: the value must be a JSON object and every known field present must have the right JSON type
 * (null counts as absent; unknown fields are ignored), else EIN0001 with reference `body`.
 * Validate: fields in struct order; the first failing field is reported as EIN0001 with its wire name.
 */
export function decodeBody<T>(schema: RequestBodySchema<T>, value: unknown): T {
  if (!isPlainObject(value)) {
    throw new HubError("EIN0001", { reference: "body", message: "The body must be a JSON object." });
  }
  for (const field of schema.fields) {
    if (!Object.hasOwn(value, field.name) || value[field.name] === undefined) continue;
    if (!decodes(field.jsonType, value[field.name], field.jsonType)) {
      throw new HubError("EIN0001", {
        reference: "body",
        message: `The body could not be decoded: field ${field.name} has the wrong JSON type.`,
      });
    }
  }
  const decoded: Record<string, unknown> = {};
  for (const field of schema.fields) {
    const raw = Object.hasOwn(value, field.name) ? value[field.name] : undefined;
    const input = raw === null ? undefined : withoutNulls(field.jsonType, raw, field.jsonType);
    const result = field.schema.safeParse(input);
    if (!result.success) {
      throw new HubError("EIN0001", {
        reference: field.name,
        message: `${field.name} ${firstIssueMessage(result.error)}.`.replace(/\.\.$/, "."),
      });
    }
    if (result.data === undefined) continue;
    for (const rule of schema.rules[field.name as keyof T] ?? []) {
      if (!rule.check(result.data, decoded as Partial<T>)) {
        throw new HubError("EIN0001", { reference: field.name, message: `${field.name} ${rule.message}.` });
      }
    }
    decoded[field.name] = result.data;
  }
  return decoded as T;
}
