import { hash } from "node:crypto";

// The few keys payloads use, each as JSON spells it with its colon. Bounded in count and in length:
// request bodies and upstream answers name keys too, and no key of ours is longer than 64.
const quotedKeys = new Map<string, string>();
const MAX_KEPT_KEYS = 4096;
const MAX_KEPT_KEY_LENGTH = 64;

function quotedKey(key: string): string {
  let quoted = quotedKeys.get(key);
  if (quoted === undefined) {
    quoted = `${JSON.stringify(key)}:`;
    if (quotedKeys.size < MAX_KEPT_KEYS && key.length <= MAX_KEPT_KEY_LENGTH) quotedKeys.set(key, quoted);
  }
  return quoted;
}

// The canonical JSON of values frozen for good (a lane's typed-data types), written once.
const frozenTexts = new WeakMap<object, string>();

function deepFreeze(value: unknown): void {
  if (value === null || typeof value !== "object") return;
  Object.freeze(value);
  for (const item of Object.values(value)) deepFreeze(item);
}

/**
 * Deep-freezes plain data the hub puts in many payloads (a lane's typed-data types) and keeps its
 * canonical JSON, which canonicalJson then writes wherever this very object appears. Returns the value.
 */
export function freezeCanonicalJson<T extends object>(value: T): T {
  deepFreeze(value);
  frozenTexts.set(value, canonicalJson(value));
  return value;
}

/** JSON with object keys sorted at every depth and no whitespace: the bytes signableHash is taken over. */
export function canonicalJson(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Object.isFrozen(value)) {
    const text = frozenTexts.get(value);
    if (text !== undefined) return text;
  }
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
    json += quotedKey(key) + canonicalJson(item);
  }
  return `${json}}`;
}

/** Lowercase hex SHA-256 of the canonical JSON of a value: the fingerprint of a request or a stored template. */
export function canonicalSha256(value: unknown): string {
  return hash("sha256", canonicalJson(value), "hex");
}

/** disclosure.signableHash: `0x` + lowercase hex SHA-256 of the canonical JSON of the signable payload. */
export function signableHash(signablePayload: unknown): string {
  return `0x${canonicalSha256(signablePayload)}`;
}
