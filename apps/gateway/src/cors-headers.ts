import { EXPOSED_HEADERS, PREFLIGHT_ALLOWED_HEADERS } from "@hub/contract";

/** Headers that let the page at `origin` read a project-id answer (refusals included). */
export function corsHeaders(origin: string | undefined): Record<string, string> {
  if (origin === undefined) return { vary: "Origin" };
  return {
    "access-control-allow-origin": origin,
    "access-control-expose-headers": EXPOSED_HEADERS,
    vary: "Origin",
  };
}

/** The answer to a CORS pre-flight; the origin is checked on the call itself, where the project is known. */
export function preflightHeaders(origin: string | undefined, maxAgeSeconds: number): Record<string, string> {
  const headers: Record<string, string> = {
    "access-control-allow-methods": "GET, POST",
    "access-control-allow-headers": PREFLIGHT_ALLOWED_HEADERS,
    "access-control-max-age": String(maxAgeSeconds),
    vary: "Origin, Access-Control-Request-Headers",
  };
  if (origin !== undefined) headers["access-control-allow-origin"] = origin;
  return headers;
}
