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

/** Lowercase hex SHA-256 of the canonical JSON of a value: the fingerprint of a request or a stored template. */
export function canonicalSha256(value: unknown): string {
  return createHash("sha256").update(canonicalJson(value), "utf8").digest("hex");
}

/** disclosure.signableHash: `0x` + lowercase hex SHA-256 of the canonical JSON of the signable payload. */
export function signableHash(signablePayload: unknown): string {
  return `0x${canonicalSha256(signablePayload)}`;
}
