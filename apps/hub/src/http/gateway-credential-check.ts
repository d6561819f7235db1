/**
 * Checks the gateway's shared secret in constant time over its characters: every character is compared,
 * with no branch on what they hold, and without a Buffer per call (encoding the presented value and
 * timingSafeEqual cost more than the rest of the hub's checks on a catalog call). Only the length can
 * differ in time, and the length of a random secret of at least 32 characters tells an attacker nothing
 * useful.
 */
export function createGatewayCredentialCheck(secret: string): (presented: string | undefined) => boolean {
  const length = secret.length;
  return (presented) => {
    if (presented === undefined || presented.length !== length) return false;
    let difference = 0;
    for (let i = 0; i < length; i++) difference |= presented.charCodeAt(i) ^ secret.charCodeAt(i);
    return difference === 0;
  };
}
