/** A json or jsonb column as the driver returns it: PGlite parses it, node-postgres may hand back text. */
export function parseJson<T>(value: unknown): T {
  return (typeof value === "string" ? JSON.parse(value) : value) as T;
}
