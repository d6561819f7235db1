import { createHash, timingSafeEqual } from "node:crypto";

/** Checks the gateway's shared secret in constant time (digests compared, so no length leaks either). */
export function createGatewayCredentialCheck(secret: string): (presented: string | undefined) => boolean {
  const expected = createHash("sha256").update(secret, "utf8").digest();
  return (presented) => {
    if (presented === undefined) return false;
    const actual = createHash("sha256").update(presented, "utf8").digest();
    return timingSafeEqual(actual, expected);
  };
}
