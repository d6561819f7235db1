import { stringify } from "yaml";
import { z } from "zod";
import { SUBJECT_PATTERN } from "./credentials.js";
import { errorEnvelopeSchema } from "./envelope-schemas.js";
import { type ErrorCode, errorCatalogue } from "./error-catalogue.js";
import type { OperationContract } from "./operation-contract.js";
import { operationContracts } from "./operations/operation-contracts.js";
import { API_PREFIX, type RouteDefinition, routeTable } from "./route-table.js";

type JsonObject = Record<string, unknown>;

const COMPONENT_REF = "#/components/schemas/";

const API_DESCRIPTION = `An orchestration hub in front of intent aggregators and solver engines: quote a swap or bridge, submit the order, follow it by polling. The service never submits a transaction on the user's behalf and never moves funds; the user's wallet sends every disclosed transaction itself.

**Credentials.** Send exactly one on every call: a secret key in \`x-api-key\` (servers only; never accepted from a browser) or the public project id in \`x-project-id\` (web pages; the page's origin must be on the project's list). Both at once: EPX0007. No sign-up, session or key routes exist; keys are managed in the dashboard. Stop on a refused key: no retry fixes it.

**Subject.** \`X-Service-Subject\` names the user (or visitor) a call is for: \`^[A-Za-z0-9._@+~-]{1,128}$\`, required where marked (EIN0001, reference \`x-service-subject\`). Use the same subject for a quote, its order and its status reads.

**Envelope.** Every route except this document answers JSON \`{success, data?, request_id?, message?, errors?}\`. The hub answers 200 on success and 400 on every failure of its own; the gateway answers its own refusals (EPX codes) with a real status. Branch on \`errors[0].error_code\`, never on the status. An answer without the envelope did not come from a route: treat it as service unavailable.

**Blocks.** terminal: change the request (no retry). availability: retry later. busy: back off — EIN0080, EPX0080, EPX0082 carry the back-off in \`error_params[0]\` (ms); EPX0081 carries seconds in \`Retry-After\` only.

**Bodies.** Every POST carries a JSON object; a GET carries none. Unknown fields are ignored. Validation order: gateway (credential, origin, route, body size, rate limits), body decode (wrong JSON type: EIN0001 \`body\`; malformed JSON: EMC0028 \`Body\`), fields in struct order (first failing field only, error_reference = its wire name), route-specific resolution, then the hub's rate-limit charge (failing validation costs nothing).

**Polling.** No webhooks, no websockets. openFor orders: GET /order/{orderId}/status every 2-3 s until finalized, failed or refunded, then the on-chain fill view until settled. Open-flow orders: GET /status/{orderId}. Show money facts from the on-chain views only.

**Formats.** Chain domains CAIP-2 (\`eip155:31337\`), case-sensitive. Assets CAIP-19. Amounts decimal strings of base units. Timestamps RFC 3339 UTC with milliseconds. On-chain ids lowercase hex with \`0x\` (other forms find nothing).`;

function toJsonSchema(schemas: Record<string, z.ZodType>, io: "input" | "output"): JsonObject {
  const doc = z.toJSONSchema(z.object(schemas), {
    io,
    unrepresentable: "any",
    target: "draft-2020-12",
    // Answers may gain fields (clients ignore unknown ones, as the hub does in bodies); only a strict object stays closed.
    override: ({ zodSchema, jsonSchema }) => {
      const def = zodSchema._zod.def as { type: string; catchall?: { _zod: { def: { type: string } } } };
      if (def.type === "object" && def.catchall?._zod.def.type !== "never")
        delete jsonSchema.additionalProperties;
    },
  });
  return JSON.parse(JSON.stringify(doc).replaceAll('"#/$defs/', `"${COMPONENT_REF}`)) as JsonObject;
}

function mergeComponents(target: Record<string, unknown>, defs: unknown): void {
  for (const [id, schema] of Object.entries((defs ?? {}) as JsonObject)) {
    const existing = target[id];
    if (existing !== undefined && JSON.stringify(existing) !== JSON.stringify(schema)) {
      throw new Error(`schema ${id} differs between request and response use`);
    }
    target[id] = schema;
  }
}

function securityOf(route: RouteDefinition): Array<Record<string, string[]>> {
  if (route.access === "public") return [];
  if (route.access === "key-only") return [{ apiKey: [] }];
  return [{ apiKey: [] }, { projectId: [] }];
}

function codesByStatus(codes: readonly ErrorCode[]): Map<number, ErrorCode[]> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = errorCatalogue[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return new Map([...byStatus.entries()].sort(([a], [b]) => a - b));
}

function errorResponses(contract: OperationContract): JsonObject {
  const responses: JsonObject = {};
  for (const [status, codes] of codesByStatus(contract.errorCodes)) {
    const lines = codes.map(
      (code) => `- \`${code}\` (${errorCatalogue[code].block}): ${errorCatalogue[code].summary}`,
    );
    const response: JsonObject = {
      description: `Refusal in the error envelope. Codes on this status:\n\n${lines.join("\n")}`,
      headers: { "X-Request-Id": { $ref: "#/components/headers/XRequestId" } },
      content: { "application/json": { schema: { $ref: `${COMPONENT_REF}ErrorEnvelope` } } },
      "x-error-codes": codes,
    };
    if (status === 429) {
      (response.headers as JsonObject)["Retry-After"] = { $ref: "#/components/headers/RetryAfter" };
    }
    responses[String(status)] = response;
  }
  return responses;
}

const RATE_LIMIT_HEADERS = {
  "RateLimit-Limit": { $ref: "#/components/headers/RateLimitLimit" },
  "RateLimit-Remaining": { $ref: "#/components/headers/RateLimitRemaining" },
  "RateLimit-Reset": { $ref: "#/components/headers/RateLimitReset" },
};

function successResponse(
  route: RouteDefinition,
  contract: OperationContract,
  dataSchema: unknown,
): JsonObject {
  if (contract.responseData === "yaml") {
    return {
      description: "The OpenAPI document, YAML.",
      content: { "application/yaml": { schema: { type: "string" } } },
    };
  }
  return {
    description: "Success envelope; `data` holds the answer.",
    headers: {
      "X-Request-Id": { $ref: "#/components/headers/XRequestId" },
      ...(route.access === "public" ? {} : RATE_LIMIT_HEADERS),
    },
    content: {
      "application/json": {
        schema: {
          type: "object",
          required: ["success", "data"],
          properties: {
            success: { const: true },
            data: dataSchema,
            request_id: { type: "string", description: "Id of this call; also in X-Request-Id." },
          },
        },
      },
    },
  };
}

/** The OpenAPI 3.1 document of the API, generated from the route table and the operation contracts. */
export function openapiDocument(): JsonObject {
  const requestSchemas: Record<string, z.ZodType> = {};
  const querySchemas: Record<string, z.ZodType> = {};
  const responseSchemas: Record<string, z.ZodType> = {};
  for (const route of routeTable) {
    const contract = operationContracts[route.operationId];
    if (contract.requestBody) requestSchemas[route.operationId] = contract.requestBody.object;
    if (contract.query) querySchemas[route.operationId] = contract.query;
    if (contract.responseData !== "yaml") responseSchemas[route.operationId] = contract.responseData;
  }
  const requests = toJsonSchema(requestSchemas, "input");
  const queries = toJsonSchema(querySchemas, "output");
  const responses = toJsonSchema(responseSchemas, "output");

  const schemas: Record<string, unknown> = {};
  mergeComponents(schemas, requests.$defs);
  mergeComponents(schemas, queries.$defs);
  mergeComponents(schemas, responses.$defs);
  const envelopes = toJsonSchema({ errorEnvelope: errorEnvelopeSchema }, "output");
  mergeComponents(schemas, envelopes.$defs);

  const paths: Record<string, JsonObject> = {};
  for (const route of routeTable) {
    const contract = operationContracts[route.operationId];
    const parameters: unknown[] = [];
    for (const [name, parameter] of Object.entries(contract.pathParameters ?? {})) {
      const schema = z.toJSONSchema(parameter.schema, { io: "input" }) as JsonObject;
      delete schema.$schema;
      parameters.push({ name, in: "path", required: true, description: parameter.description, schema });
    }
    const queryProperties = ((queries.properties as JsonObject)[route.operationId] as JsonObject | undefined)
      ?.properties as Record<string, JsonObject> | undefined;
    for (const [name, schema] of Object.entries(queryProperties ?? {})) {
      const { description, ...rest } = schema;
      parameters.push({ name, in: "query", required: false, description, schema: rest });
    }
    if (route.subjectRequired) parameters.push({ $ref: "#/components/parameters/ServiceSubject" });

    const operation: JsonObject = {
      operationId: route.operationId,
      summary: contract.summary,
      description: contract.description,
      security: securityOf(route),
    };
    if (parameters.length > 0) operation.parameters = parameters;
    if (contract.requestBody) {
      operation.requestBody = {
        required: true,
        content: { "application/json": { schema: (requests.properties as JsonObject)[route.operationId] } },
      };
    }
    operation.responses = {
      "200": successResponse(route, contract, (responses.properties as JsonObject)[route.operationId]),
      ...errorResponses(contract),
    };
    operation["x-error-codes"] = [...contract.errorCodes];
    operation["x-timeout-seconds"] = route.timeoutClass === "quote" ? 20 : 10;
    const path = `${API_PREFIX}${route.path}`;
    paths[path] = { ...(paths[path] ?? {}), [route.method.toLowerCase()]: operation };
  }

  return {
    openapi: "3.1.0",
    info: { title: "Intent swap and bridge hub API", version: "1.0.0", description: API_DESCRIPTION },
    servers: [
      {
        url: "{origin}",
        description: "The gateway; {base_url} is this origin followed by /v1.",
        variables: { origin: { default: "http://127.0.0.1:8080" } },
      },
    ],
    paths,
    components: {
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
        RetryAfter: { description: "Seconds to wait before the next call.", schema: { type: "integer" } },
        RateLimitLimit: {
          description:
            "Size of the caller's gateway pool (for a project id, the tighter of its two buckets); on every call with an accepted credential.",
          schema: { type: "integer" },
        },
        RateLimitRemaining: { description: "Requests left in the pool.", schema: { type: "integer" } },
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
    },
  };
}

/** The OpenAPI document as YAML, as committed in packages/contract/openapi.yaml and served at GET /v1/openapi.yaml. */
export function openapiYaml(): string {
  return stringify(openapiDocument(), { lineWidth: 0, aliasDuplicateObjects: false });
}
