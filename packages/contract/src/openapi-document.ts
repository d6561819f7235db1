import { stringify } from "yaml";
import { API_DESCRIPTION } from "./openapi/api-description.js";
import { documentTags } from "./openapi/document-tags.js";
import { openapiComponents } from "./openapi/openapi-components.js";
import { operationSchemas } from "./openapi/operation-schemas.js";
import { pathOperation } from "./openapi/path-operation.js";
import type { JsonObject } from "./openapi/to-json-schema.js";
import { API_PREFIX, routeTable } from "./route-table.js";

/** The OpenAPI 3.1 document of the API, generated from the route table and the operation contracts. */
export function openapiDocument(): JsonObject {
  const schemas = operationSchemas();
  const paths: Record<string, JsonObject> = {};
  for (const route of routeTable) {
    const operation = pathOperation(route, schemas);
    paths[route.path] = { ...(paths[route.path] ?? {}), [route.method.toLowerCase()]: operation };
  }

  return {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    info: { title: "Intent swap and bridge hub API", version: "1.0.0", description: API_DESCRIPTION },
    servers: [
      {
        url: `{origin}${API_PREFIX}`,
        description:
          "{base_url}: the gateway's origin followed by /v1 (dev.json's baseUrl). The default is the local devnet stack of `npm start`; a production deployment names its own origin.",
        "x-internal": false,
        variables: { origin: { default: "http://127.0.0.1:8080" } },
      },
    ],
    tags: documentTags(),
    paths,
    components: openapiComponents(schemas.components),
  };
}

/** The OpenAPI document as YAML, as committed in packages/contract/openapi.yaml and served at GET /v1/openapi.yaml. */
export function openapiYaml(): string {
  return stringify(openapiDocument(), { lineWidth: 0, aliasDuplicateObjects: false });
}
