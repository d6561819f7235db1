import { EXPOSED_HEADERS } from "../cors.js";
import { SUBJECT_PATTERN } from "../credentials.js";
import type { JsonObject } from "./to-json-schema.js";

/** The document's components: the schemas given (sorted by name), the subject header, the answer headers and the credentials. */
export function openapiComponents(schemas: Record<string, unknown>): JsonObject {
  return {
    schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))),
    parameters: {
      ServiceSubject: {
        name: "X-Service-Subject",
        in: "header",
        required: true,
        description:
          "The user (or visitor) the call is for. Missing or malformed: EIN0001, reference `x-service-subject`. The service keeps each subject's quotes, orders and history apart; from a page it labels a visitor and proves nothing.",
        schema: { type: "string", minLength: 1, maxLength: 128, pattern: SUBJECT_PATTERN.source },
      },
    },
    headers: {
      XRequestId: {
        description: "Id of the call, also in the body's request_id.",
        schema: { type: "string" },
      },
      CacheControl: { description: "Always `no-store`.", schema: { type: "string", const: "no-store" } },
      XContentTypeOptions: {
        description: "Always `nosniff`: a browser never reads an answer as another type than it says.",
        schema: { type: "string", const: "nosniff" },
      },
      AccessControlAllowOrigin: {
        description: "On calls with x-project-id: the page's origin (checked against the project's list).",
        schema: { type: "string" },
      },
      AccessControlExposeHeaders: {
        description: "On calls with x-project-id: the headers a page may read.",
        schema: {
          type: "string",
          const: EXPOSED_HEADERS,
        },
      },
      Vary: { description: "`Origin`: answers differ by the calling page.", schema: { type: "string" } },
      RetryAfter: { description: "Seconds to wait before the next call.", schema: { type: "integer" } },
      RateLimitLimit: {
        description:
          "Size of the caller's gateway pool (for a project id, the tighter of its two buckets, counted in reads: a quote or a submission takes many); on every answer to a call whose credential was accepted, refusals included.",
        schema: { type: "integer" },
      },
      RateLimitRemaining: {
        description: "Left in the pool: calls with a key, reads with a project id.",
        schema: { type: "integer" },
      },
      RateLimitReset: { description: "Seconds until the pool is full again.", schema: { type: "integer" } },
    },
    securitySchemes: {
      apiKey: {
        type: "apiKey",
        in: "header",
        name: "x-api-key",
        description:
          "Secret key: `svc_sk_` followed by 43 base64url characters. Servers only; opens every route. Missing or malformed: EPX0001; unknown, revoked or expired: EPX0002 (401).",
      },
      projectId: {
        type: "apiKey",
        in: "header",
        name: "x-project-id",
        description:
          "Public project id (`proj_` + 24 base62 characters), safe in a browser bundle. Every route except GET /orders (EPX0003). Malformed: EPX0008; unknown: EPX0009; origin not allowed: EPX0010.",
      },
    },
  };
}
