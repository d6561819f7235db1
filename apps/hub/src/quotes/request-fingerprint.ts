import { createHash } from "node:crypto";
import { canonicalJson } from "@hub/contract";

/** SHA-256 (lowercase hex) of the canonical JSON of a decoded request body. */
export function requestFingerprint(body: unknown): string {
  return createHash("sha256").update(canonicalJson(body), "utf8").digest("hex");
}
