import { BlockList, isIP, isIPv4 } from "node:net";
import { type Cidr, parseCidr } from "./parse-cidr.js";

/** The trusted proxies' networks, ready to ask of an address. */
export type ProxyTrust = BlockList;

/** A BlockList of the given CIDRs; an IPv4 network also matches its IPv4-mapped IPv6 form. */
export function createProxyTrust(cidrs: readonly string[]): ProxyTrust {
  const list = new BlockList();
  for (const text of cidrs) {
    const cidr: Cidr | undefined = parseCidr(text);
    if (cidr) list.addSubnet(cidr.address, cidr.prefix, cidr.family);
  }
  return list;
}

/** An address as a proxy may write it (`[v6]`, `[v6]:port`, `v4:port`, `::ffff:v4`), plain; undefined when it is none. */
function plainAddress(text: string): string | undefined {
  // The usual socket peer (a plain IPv4 address) is already plain; none of the rewrites below applies to it.
  if (isIPv4(text)) return text;
  let address = text.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address)?.[1];
  if (bracketed !== undefined) address = bracketed;
  else if (/^[\d.]+:\d+$/.test(address)) address = address.slice(0, address.indexOf(":"));
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped !== undefined) address = mapped;
  return isIP(address) === 0 ? undefined : address;
}

function isTrusted(trust: ProxyTrust, address: string): boolean {
  return trust.check(address, isIP(address) === 4 ? "ipv4" : "ipv6");
}

/**
 * The caller's address (DESIGN §4): the socket's peer, unless the peer is a trusted proxy; then the
 * right-most `X-Forwarded-For` entry that is not a trusted proxy, walking from the right. An entry that
 * is no address stops the walk at the trusted hop that wrote it, and a chain of only trusted proxies
 * gives its left-most entry. Without trusted proxies the header is never read.
 */
export function clientAddress(
  peer: string,
  forwardedFor: string | readonly string[] | undefined,
  trust: ProxyTrust | undefined,
): string {
  let client = plainAddress(peer) ?? peer;
  if (trust === undefined || forwardedFor === undefined || !isTrusted(trust, client)) return client;
  const entries = (typeof forwardedFor === "string" ? forwardedFor : forwardedFor.join(",")).split(",");
  for (const written of entries.reverse()) {
    const entry = plainAddress(written);
    if (entry === undefined) return client;
    client = entry;
    if (!isTrusted(trust, entry)) return client;
  }
  return client;
}
