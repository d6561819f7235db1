/** The only request headers a page may send (spec Authentication, project id): never x-api-key. */
export const PREFLIGHT_ALLOWED_HEADERS = "x-project-id, Content-Type, X-Service-Subject";

/** The response headers a page may read on a project-id answer. */
export const EXPOSED_HEADERS =
  "X-Request-Id, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After";
