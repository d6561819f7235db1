import type { z } from "zod";
import { HubError } from "./hub-error.js";

/** A query string as Node or Fastify hand it over: a value, repeated values, or nothing per name. */
export type RawQuery = URLSearchParams | Readonly<Record<string, string | readonly string[] | undefined>>;

function valuesOf(query: RawQuery, name: string): readonly string[] {
  if (query instanceof URLSearchParams) return query.getAll(name);
  if (!Object.hasOwn(query, name)) return [];
  const value = query[name];
  if (value === undefined) return [];
  return typeof value === "string" ? [value] : value;
}

/**
 * Validates query parameters in the schema's shape order like form fields: an empty value counts as
 * absent, a repeated parameter or the first failing one is EIN0001 with the parameter's name; unknown
 * parameters are ignored.
 */
export function decodeQuery<O extends z.ZodObject>(schema: O, query: RawQuery): z.output<O> {
  const decoded: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(schema.shape)) {
    const values = valuesOf(query, name).filter((value) => value !== "");
    if (values.length > 1) {
      throw new HubError("EIN0001", { reference: name, message: `${name} must be given at most once.` });
    }
    const result = (field as z.ZodType).safeParse(values[0]);
    if (!result.success) {
      const message = result.error.issues[0]?.message ?? "is invalid";
      throw new HubError("EIN0001", { reference: name, message: `${name} ${message}.` });
    }
    if (result.data !== undefined) decoded[name] = result.data;
  }
  return decoded as z.output<O>;
}
