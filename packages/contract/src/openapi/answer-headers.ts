import type { RouteDefinition } from "../route-table.js";
import type { JsonObject } from "./to-json-schema.js";

/** The headers a gateway answer carries on a route: rate-limit ones only where a credential is taken. */
export function answerHeaders(route: RouteDefinition): JsonObject {
  return {
    "X-Request-Id": { $ref: "#/components/headers/XRequestId" },
    "Cache-Control": { $ref: "#/components/headers/CacheControl" },
    "X-Content-Type-Options": { $ref: "#/components/headers/XContentTypeOptions" },
    ...(route.access === "public"
      ? {}
      : {
          "RateLimit-Limit": { $ref: "#/components/headers/RateLimitLimit" },
          "RateLimit-Remaining": { $ref: "#/components/headers/RateLimitRemaining" },
          "RateLimit-Reset": { $ref: "#/components/headers/RateLimitReset" },
        }),
    "Access-Control-Allow-Origin": { $ref: "#/components/headers/AccessControlAllowOrigin" },
    "Access-Control-Expose-Headers": { $ref: "#/components/headers/AccessControlExposeHeaders" },
    Vary: { $ref: "#/components/headers/Vary" },
  };
}
