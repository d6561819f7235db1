import { isIP } from "node:net";

/** The eight 16-bit groups of an IPv6 address, `::` expanded (an embedded IPv4 tail taken as two groups). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === undefined || tail === "" ? [] : tail.split(":");
  const zeros = Array.from({ length: 8 - left.length - right.length }, () => "0");
  return [...left, ...(tail === undefined ? [] : zeros), ...right].map((group) => Number.parseInt(group, 16));
}

/**
 * The key the lockout and the visitor bucket count a caller under: an IPv4 address as it is, an IPv6
 * address by its /64 (one subscriber's usual allocation, so rotating within it does not escape a limit).
 */
export function addressKey(address: string): string {
  if (isIP(address) !== 6) return address;
  const groups = ipv6Groups(address).slice(0, 4);
  return `${groups.map((group) => group.toString(16)).join(":")}::/64`;
}
