import { isIP } from "node:net";

/**
 * The host part of a URL that reaches a listener bound to `host`: an IPv6 literal in brackets, and the
 * unspecified addresses (0.0.0.0, ::), which accept connections on every interface, as the loopback
 * address of their family, so that the printed URLs and dev.json can be opened from this machine.
 */
export function urlHost(host: string): string {
  if (host === "0.0.0.0") return "127.0.0.1";
  if (isIP(host) === 6 && /^[0:]+$/.test(host)) return "[::1]";
  return isIP(host) === 6 ? `[${host}]` : host;
}

/** `http://host:port` for a listener bound to `host` (see urlHost). */
export function listenerUrl(host: string, port: number): string {
  return `http://${urlHost(host)}:${port}`;
}
