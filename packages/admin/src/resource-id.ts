import { randomInt } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** A new id: the prefix (`org_`, `key_`, `acct_`) followed by 24 base62 characters. */
export function newResourceId(prefix: "org_" | "key_" | "acct_"): string {
  let out = prefix;
  for (let i = 0; i < 24; i++) out += BASE62[randomInt(62)];
  return out;
}
