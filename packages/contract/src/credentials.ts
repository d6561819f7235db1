import { hash, randomBytes, randomInt } from "node:crypto";

/** Prefix of a secret API key. */
export const API_KEY_PREFIX = "svc_sk_";
/** Prefix of a public project id. */
export const PROJECT_ID_PREFIX = "proj_";

const API_KEY_PATTERN = /^svc_sk_[A-Za-z0-9_-]{43}$/;
const PROJECT_ID_PATTERN = /^proj_[A-Za-z0-9]{24}$/;
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** The X-Service-Subject value pattern: 1 to 128 of letters, digits and `._@+~-`. */
export const SUBJECT_PATTERN = /^[A-Za-z0-9._@+~-]{1,128}$/;

/** A new secret key: `svc_sk_` + 43 base64url characters (32 random bytes). */
export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(32).toString("base64url");
}

/** True when the value has the secret key's exact format. */
export function isApiKeyFormat(value: string): boolean {
  return API_KEY_PATTERN.test(value);
}

/** The only form in which a key is stored: lowercase hex SHA-256 of the whole key. */
export function hashApiKey(key: string): string {
  // One-shot hash: the gateway checks a key per request, and a createHash object costs more than the lookup.
  return hash("sha256", key, "hex");
}

/** What a listing may show of a key: its prefix and first four characters. */
export function apiKeyDisplayPrefix(key: string): string {
  return key.slice(0, API_KEY_PREFIX.length + 4);
}

/** A new public project id: `proj_` + 24 base62 characters. */
export function generateProjectId(): string {
  let out = PROJECT_ID_PREFIX;
  for (let i = 0; i < 24; i++) out += BASE62[randomInt(62)];
  return out;
}

/** True when the value has the project id's exact format. */
export function isProjectIdFormat(value: string): boolean {
  return PROJECT_ID_PATTERN.test(value);
}

/** True when the value is an acceptable X-Service-Subject. */
export function isValidSubject(value: string): boolean {
  return SUBJECT_PATTERN.test(value);
}
