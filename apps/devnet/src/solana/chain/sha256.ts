import { createHash } from "node:crypto";

export function sha256(...parts: (Uint8Array | string)[]): Uint8Array {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(part);
  return hash.digest();
}
