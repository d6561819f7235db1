import { createHash } from "node:crypto";

/** JSON with object keys sorted at every depth and no whitespace: the bytes signableHash is taken over. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`;
}

/** disclosure.signableHash: `0x` + lowercase hex SHA-256 of the canonical JSON of the signable payload. */
export function signableHash(signablePayload: unknown): string {
  return `0x${createHash("sha256").update(canonicalJson(signablePayload), "utf8").digest("hex")}`;
}
