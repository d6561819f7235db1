/** The cookie names and attributes: `__Host-` names and Secure when the dashboard is served over https. */
export interface CookieJar {
  readonly session: string;
  readonly once: string;
  /** A password accepted, a two-factor code still to come (5 minutes; not a session). */
  readonly pending: string;
  /** A Set-Cookie value; maxAgeSeconds 0 clears the cookie. */
  set(name: string, value: string, maxAgeSeconds?: number): string;
}

export function createCookieJar(secure: boolean): CookieJar {
  const prefix = secure ? "__Host-" : "";
  return {
    session: `${prefix}hub_session`,
    once: `${prefix}hub_once`,
    pending: `${prefix}hub_pending`,
    set(name, value, maxAgeSeconds) {
      const attributes = [`${name}=${value}`, "Path=/", "HttpOnly", "SameSite=Strict"];
      if (secure) attributes.push("Secure");
      if (maxAgeSeconds !== undefined) attributes.push(`Max-Age=${maxAgeSeconds}`);
      return attributes.join("; ");
    },
  };
}

/** The cookies of a request's Cookie header; the first of a repeated name wins. */
export function readCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? "").split(";")) {
    const at = part.indexOf("=");
    if (at < 1) continue;
    const name = part.slice(0, at).trim();
    if (!cookies.has(name)) cookies.set(name, part.slice(at + 1).trim());
  }
  return cookies;
}
