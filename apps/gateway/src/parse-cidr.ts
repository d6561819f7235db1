import { isIP } from "node:net";

/** One network of a CIDR list: its address, prefix length and family. */
export interface Cidr {
  readonly address: string;
  readonly prefix: number;
  readonly family: "ipv4" | "ipv6";
}

/** Reads `10.0.0.0/8`, `2001:db8::/32` or a bare address (one host); undefined when it is neither. */
export function parseCidr(text: string): Cidr | undefined {
  const [address = "", prefixText, extra] = text.trim().split("/");
  const version = isIP(address);
  if (version === 0 || extra !== undefined) return undefined;
  const family = version === 4 ? "ipv4" : "ipv6";
  const maxPrefix = version === 4 ? 32 : 128;
  if (prefixText === undefined) return { address, prefix: maxPrefix, family };
  if (!/^\d{1,3}$/.test(prefixText)) return undefined;
  const prefix = Number(prefixText);
  return prefix <= maxPrefix ? { address, prefix, family } : undefined;
}
