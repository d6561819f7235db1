import { createHash } from "node:crypto";

/** JSON with object keys sorted at every depth and no whitespace: the bytes signableHash is taken over. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) {
    let json = "[";
    for (let i = 0; i < value.length; i += 1) {
      if (i > 0) json += ",";
      // A hole stays empty, as map and join leave it.
      if (i in value) json += canonicalJson(value[i] ?? null);
    }
    return `${json}]`;
  }
  // Keys in UTF-16 code unit order (sort's own order for strings), undefined members left out.
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  let json = "{";
  for (const key of keys) {
    const item = record[key];
    if (item === undefined) continue;
    if (json.length > 1) json += ",";
    json += `${JSON.stringify(key)}:${canonicalJson(item)}`;
  }
  return `${json}}`;
}

/** Lowercase hex SHA-256 of the canonical JSON of a value: the fingerprint of a request or a stored template. */
export function canonicalSha256(value: unknown): string {
  return createHash("sha256").update(canonicalJson(value), "utf8").digest("hex");
}

/** disclosure.signableHash: `0x` + lowercase hex SHA-256 of the canonical JSON of the signable payload. */
export function signableHash(signablePayload: unknown): string {
  return `0x${canonicalSha256(signablePayload)}`;
}
