/** The only request headers a page may send (spec Authentication, project id): never x-api-key. */
export const PREFLIGHT_ALLOWED_HEADERS = "x-project-id, Content-Type, X-Service-Subject";

/** The response headers a page may read on a project-id answer. */
export const EXPOSED_HEADERS =
  "X-Request-Id, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After";

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
