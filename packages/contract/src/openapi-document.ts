import { stringify } from "yaml";
import { z } from "zod";
import { EXPOSED_HEADERS, PREFLIGHT_ALLOWED_HEADERS } from "./cors.js";
import { SUBJECT_PATTERN } from "./credentials.js";
import { errorEnvelope, successEnvelope } from "./envelope.js";
import { errorEnvelopeSchema } from "./envelope-schemas.js";
import { type ErrorCode, errorCatalogue, errorCodes } from "./error-catalogue.js";
import { errorClientActions } from "./error-client-actions.js";
import { markdownCell } from "./errors-doc.js";
import type { OperationContract } from "./operation-contract.js";
import { operationContracts } from "./operations/operation-contracts.js";
import { operationExamples } from "./operations/operation-examples.js";
import { API_PREFIX, type OperationId, type RouteDefinition, routeTable } from "./route-table.js";

type JsonObject = Record<string, unknown>;

const COMPONENT_REF = "#/components/schemas/";

const API_DESCRIPTION = `An orchestration hub in front of intent aggregators and solver engines: quote a swap or bridge, submit the order, follow it by polling. The service never submits a transaction on the user's behalf and never moves funds; the user's wallet sends every disclosed transaction itself.

**Credentials.** Send exactly one on every call: a secret key in \`x-api-key\` (servers only; never accepted from a browser) or the public project id in \`x-project-id\` (web pages; the page's origin must be on the project's list). Both at once: EPX0007. No sign-up, session or key routes exist; keys are managed in the dashboard. Stop on a refused key: no retry fixes it.

**Subject.** \`X-Service-Subject\` names the user (or visitor) a call is for: \`^[A-Za-z0-9._@+~-]{1,128}$\`, required where marked (EIN0001, reference \`x-service-subject\`). Use the same subject for a quote, its order and its status reads.

**Base URL.** Every path below is relative to {base_url}, the gateway's origin followed by \`/v1\` (the \`baseUrl\` of \`.data/dev.json\` under \`npm start\`). A method or path that names no route answers EPX0004 (404).

**Envelope.** Every route except this document answers JSON \`{success, data?, request_id?, message?, errors?}\`. The hub answers 200 on success and 400 on every failure of its own; the gateway answers its own refusals (EPX codes) with a real status. Branch on \`errors[0].error_code\`, never on the status. An answer without the envelope did not come from a route: treat it as service unavailable.

**Headers.** Every answer carries \`X-Request-Id\` and \`Cache-Control: no-store\`; once a credential is accepted, refusals included, \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\`. A call with a project id gets \`Access-Control-Allow-Origin\` (the page's origin), \`Access-Control-Expose-Headers\` and \`Vary: Origin\` on every answer; a CORS pre-flight (OPTIONS with \`Access-Control-Request-Method\`) on a known path answers 204 allowing GET and POST with the request headers \`${PREFLIGHT_ALLOWED_HEADERS}\`, never \`x-api-key\`.

**Blocks.** terminal: change the request (no retry). availability: retry later. busy: back off — EIN0080, EPX0080, EPX0082 carry the back-off in \`error_params[0]\` (ms); EPX0081 carries seconds in \`Retry-After\` only.

**Bodies.** Every POST carries a JSON object; a GET carries none. Unknown fields are ignored. Validation order: gateway (credential, origin, route, body size, rate limits), body decode (wrong JSON type: EIN0001 \`body\`; malformed JSON: EMC0028 \`Body\`), fields in struct order (first failing field only, error_reference = its wire name), route-specific resolution, then the hub's rate-limit charge (failing validation costs nothing).

**Polling.** No webhooks, no websockets. openFor orders: GET /order/{orderId}/status every 2-3 s until finalized, failed or refunded, then the on-chain fill view until settled. Open-flow orders: GET /status/{orderId}. Show money facts from the on-chain views only.

**Formats.** Chain domains CAIP-2 (\`eip155:31337\`), case-sensitive. Assets CAIP-19. Amounts decimal strings of base units. Timestamps RFC 3339 UTC with milliseconds. On-chain ids lowercase hex with \`0x\` (other forms find nothing).`;

function toJsonSchema(schemas: Record<string, z.ZodType>, io: "input" | "output"): JsonObject {
  const doc = z.toJSONSchema(z.object(schemas), {
    io,
    unrepresentable: "any",
    target: "draft-2020-12",
    override: ({ zodSchema, jsonSchema }) => {
      const def = zodSchema._zod.def as { type: string; catchall?: { _zod: { def: { type: string } } } };
      // Answers may gain fields (clients ignore unknown ones, as the hub does in bodies); only a strict object stays closed.
      if (def.type === "object" && def.catchall?._zod.def.type !== "never")
        delete jsonSchema.additionalProperties;
      // What a client sends: a default makes generators require the field; the description names it.
      if (io === "input") delete jsonSchema.default;
    },
  });
  const json = JSON.parse(JSON.stringify(doc).replaceAll('"#/$defs/', `"${COMPONENT_REF}`)) as JsonObject;
  if (io === "input") admitNullOnOptionalFields(json);
  return json;
}

/**
 * The body decoder reads a JSON null as an absent field (Go's decoder, spec Common rule 4: bodies are
 * decoded leniently), so an optional field admits null; a required one is refused as missing.
 */
function admitNullOnOptionalFields(node: unknown): void {
  if (typeof node !== "object" || node === null) return;
  for (const value of Object.values(node)) admitNullOnOptionalFields(value);
  if (Array.isArray(node)) return;
  const schema = node as JsonObject;
  const properties = schema.properties as Record<string, JsonObject> | undefined;
  if (schema.type !== "object" || !properties) return;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  for (const [name, property] of Object.entries(properties)) {
    if (required.has(name)) continue;
    const { description, ...rest } = property;
    properties[name] = {
      ...(description === undefined ? {} : { description }),
      anyOf: [rest, { type: "null", description: "Read as absent." }],
    };
  }
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

/** The headers a gateway answer carries on a route: rate-limit ones only where a credential is taken. */
function answerHeaders(route: RouteDefinition): JsonObject {
  return {
    "X-Request-Id": { $ref: "#/components/headers/XRequestId" },
    "Cache-Control": { $ref: "#/components/headers/CacheControl" },
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

/** Busy codes carry their back-off in error_params[0] (ms); the example shows one. */
const EXAMPLE_PARAMS: Partial<Record<ErrorCode, string[]>> = {
  EIN0080: ["1500"],
  EPX0080: ["1000"],
  EPX0082: ["1000"],
};

function errorExample(code: ErrorCode, route: RouteDefinition): JsonObject {
  const reference =
    code === "EIN0001" ? (route.subjectRequired ? "x-service-subject" : "orderId") : undefined;
  return {
    summary: `${code} (${errorCatalogue[code].block})`,
    description: errorClientActions[code],
    value: errorEnvelope(code, "9f0c1d2e-3a4b-4c5d-8e6f-7a8b9c0d1e2f", {
      ...(reference ? { reference } : {}),
      ...(EXAMPLE_PARAMS[code] ? { params: EXAMPLE_PARAMS[code] } : {}),
    }),
  };
}

function errorResponses(route: RouteDefinition, contract: OperationContract): JsonObject {
  const responses: JsonObject = {};
  for (const [status, codes] of codesByStatus(contract.errorCodes)) {
    const lines = codes.map(
      (code) => `- \`${code}\` (${errorCatalogue[code].block}): ${errorCatalogue[code].summary}`,
    );
    const headers = answerHeaders(route);
    if (status === 429) headers["Retry-After"] = { $ref: "#/components/headers/RetryAfter" };
    responses[String(status)] = {
      description: `Refusal in the error envelope. Codes on this status:\n\n${lines.join("\n")}`,
      headers,
      content: {
        "application/json": {
          schema: { $ref: `${COMPONENT_REF}ErrorEnvelope` },
          examples: Object.fromEntries(codes.map((code) => [code, errorExample(code, route)])),
        },
      },
      "x-error-codes": codes,
    };
  }
  return responses;
}

function successResponse(
  route: RouteDefinition,
  contract: OperationContract,
  dataSchema: unknown,
): JsonObject {
  const example = operationExamples[contract.operationId].responseData;
  if (contract.responseData === "yaml") {
    return {
      description: "The OpenAPI document, YAML.",
      headers: answerHeaders(route),
      content: { "application/yaml": { schema: { type: "string" }, example } },
    };
  }
  return {
    description: "Success envelope; `data` holds the answer.",
    headers: answerHeaders(route),
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
        example: successEnvelope(example, "3c5e7a9b-1d2f-4a6b-8c0d-2e4f6a8b0c1d"),
      },
    },
  };
}

const TAGS = [
  { name: "Catalog", description: "The deployment's chains and assets, and this document." },
  {
    name: "Quotes",
    description: "Quote a swap or bridge: one round, a preview of offers, or a prepared quote.",
  },
  { name: "Orders", description: "Submit a winner and follow the order by polling." },
  {
    name: "On-chain views",
    description: "What the service read on chain: the money facts to show. Not scoped to an organization.",
  },
] as const;

const ERRORS_TAG = "Error codes";

const OPERATION_TAGS: Record<OperationId, (typeof TAGS)[number]["name"]> = {
  getCatalog: "Catalog",
  getOpenapi: "Catalog",
  createQuote: "Quotes",
  previewQuote: "Quotes",
  prepareQuote: "Quotes",
  submitOpenForOrder: "Orders",
  createOrder: "Orders",
  getOrderStatus: "Orders",
  getHubStatus: "Orders",
  listOrders: "Orders",
  getOnchainFill: "On-chain views",
  getOrderByTransaction: "On-chain views",
  getOnchainRefund: "On-chain views",
  getOnchainOrder: "On-chain views",
};

/** Every code of the catalogue with its status, block, meaning and what a client does (EPX0004 included, which no path names). */
function errorCatalogueMarkdown(): string {
  const rows = errorCodes.map((code) => {
    const spec = errorCatalogue[code];
    return `| ${code} | ${spec.status} | ${spec.block} | ${markdownCell(spec.summary)} | ${markdownCell(errorClientActions[code])} |`;
  });
  const intro =
    "Every refusal is `{success: false, request_id?, message?, errors: [{error_code, error_reference?, error_params?}]}`; branch on `errors[0].error_code`. The same table as JSON: `packages/contract/errors.json`, served by the dashboard at `/docs/errors.json`.";
  return `${intro}\n\n| Code | Status | Block | Meaning | What a client does |\n|---|---|---|---|---|\n${rows.join("\n")}`;
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
    const example = operationExamples[contract.operationId];
    const parameters: unknown[] = [];
    for (const [name, parameter] of Object.entries(contract.pathParameters ?? {})) {
      const schema = z.toJSONSchema(parameter.schema, { io: "input" }) as JsonObject;
      delete schema.$schema;
      parameters.push({
        name,
        in: "path",
        required: true,
        description: parameter.description,
        schema,
        example: example.pathParameters?.[name],
      });
    }
    const queryProperties = ((queries.properties as JsonObject)[route.operationId] as JsonObject | undefined)
      ?.properties as Record<string, JsonObject> | undefined;
    for (const [name, schema] of Object.entries(queryProperties ?? {})) {
      const { description, ...rest } = schema;
      const query = { name, in: "query", required: false, description, schema: rest };
      const value = example.query?.[name];
      if (value === undefined) parameters.push(query);
      else parameters.push({ ...query, example: rest.type === "integer" ? Number(value) : value });
    }
    if (route.subjectRequired) parameters.push({ $ref: "#/components/parameters/ServiceSubject" });

    const operation: JsonObject = {
      operationId: route.operationId,
      tags: [OPERATION_TAGS[contract.operationId]],
      summary: contract.summary,
      description: contract.description,
      security: securityOf(route),
    };
    if (parameters.length > 0) operation.parameters = parameters;
    if (contract.requestBody) {
      operation.requestBody = {
        required: true,
        content: {
          "application/json": {
            schema: (requests.properties as JsonObject)[route.operationId],
            example: example.requestBody,
          },
        },
      };
    }
    operation.responses = {
      "200": successResponse(route, contract, (responses.properties as JsonObject)[route.operationId]),
      ...errorResponses(route, contract),
    };
    operation["x-error-codes"] = [...contract.errorCodes];
    operation["x-timeout-seconds"] = route.timeoutClass === "quote" ? 20 : 10;
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
    tags: [...TAGS, { name: ERRORS_TAG, description: errorCatalogueMarkdown(), "x-traitTag": true }],
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
        CacheControl: { description: "Always `no-store`.", schema: { type: "string", const: "no-store" } },
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
            "Size of the caller's gateway pool (for a project id, the tighter of its two buckets); on every answer to a call whose credential was accepted, refusals included.",
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
