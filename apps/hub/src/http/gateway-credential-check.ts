import { timingSafeEqual } from "node:crypto";

/**
 * Checks the gateway's shared secret in constant time over its bytes. Only the length can differ in
 * time, and the length of a random secret of at least 32 characters tells an attacker nothing useful.
 */
export function createGatewayCredentialCheck(secret: string): (presented: string | undefined) => boolean {
  const expected = Buffer.from(secret, "utf8");
  return (presented) => {
    if (presented === undefined || Buffer.byteLength(presented, "utf8") !== expected.length) return false;
    return timingSafeEqual(Buffer.from(presented, "utf8"), expected);
  };
}
