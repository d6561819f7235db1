import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { parse } from "yaml";
import {
  API_PREFIX,
  createQuoteRequestBody,
  decodeBody,
  errorCatalogue,
  laneSchema,
  operationContracts,
  routeTable,
} from "../src/index.js";
import { openapiDocument, openapiYaml } from "../src/openapi-document.js";

// biome-ignore lint/suspicious/noExplicitAny: the document is walked as plain JSON.
type Json = any;
const doc: Json = openapiDocument();
const root = new URL("../../../", import.meta.url).pathname;

function operationOf(method: string, path: string): Json {
  return doc.paths[path]?.[method.toLowerCase()];
}

test("the committed openapi.yaml is the generated document", () => {
  assert.equal(readFileSync(`${root}packages/contract/openapi.yaml`, "utf8"), openapiYaml());
});

test("the package's index leaves the document's generator (and yaml) to its own entry, so a start does not load them", async () => {
  const index = await import("../src/index.js");
  assert.equal("openapiDocument" in index, false);
  assert.equal("openapiYaml" in index, false);
});

test("openapiYaml parses back to openapiDocument", () => {
  assert.deepEqual(parse(openapiYaml()), JSON.parse(JSON.stringify(doc)));
});

test("the document is OpenAPI 3.1", () => {
  assert.equal(doc.openapi, "3.1.0");
});

test("the server is {base_url} (the origin followed by /v1), so a client built on dev.json's baseUrl calls the right paths", () => {
  assert.equal(doc.servers.length, 1);
  assert.equal(doc.servers[0].url, `{origin}${API_PREFIX}`);
  assert.equal(doc.jsonSchemaDialect, "https://json-schema.org/draft/2020-12/schema");
});

test("every route of the route table is a path after /v1 with its operationId, and nothing else is", () => {
  const expected = routeTable.map((route) => `${route.method} ${route.path} ${route.operationId}`);
  const actual = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item as Json).map(
      ([method, op]) => `${method.toUpperCase()} ${path} ${(op as Json).operationId}`,
    ),
  );
  assert.deepEqual(actual.sort(), expected.sort());
});

test("X-Service-Subject is a required header exactly where the route table requires it", () => {
  for (const route of routeTable) {
    const refs = (operationOf(route.method, route.path).parameters ?? []).map((p: Json) => p.$ref);
    assert.equal(
      refs.includes("#/components/parameters/ServiceSubject"),
      route.subjectRequired,
      route.operationId,
    );
  }
  assert.equal(doc.components.parameters.ServiceSubject.required, true);
  assert.equal(doc.components.parameters.ServiceSubject.name, "X-Service-Subject");
});

const securityRows: Array<[string, string[]]> = [
  ["key-or-project", ["apiKey", "projectId"]],
  ["key-only", ["apiKey"]],
  ["public", []],
];

for (const [access, schemes] of securityRows) {
  test(`a ${access} route offers the security schemes ${schemes.join(", ") || "none"}`, () => {
    for (const route of routeTable.filter((r) => r.access === access)) {
      const security = operationOf(route.method, route.path).security as Array<Record<string, string[]>>;
      assert.deepEqual(
        security.flatMap((s) => Object.keys(s)),
        schemes,
        route.operationId,
      );
    }
  });
}

test("the credentials are header security schemes x-api-key and x-project-id", () => {
  assert.deepEqual(doc.components.securitySchemes.apiKey, {
    ...doc.components.securitySchemes.apiKey,
    type: "apiKey",
    in: "header",
    name: "x-api-key",
  });
  assert.equal(doc.components.securitySchemes.projectId.name, "x-project-id");
});

test("every route that reads a body declares a required JSON request body, and no other route does", () => {
  for (const route of routeTable) {
    const op = operationOf(route.method, route.path);
    assert.equal(op.requestBody?.required === true, route.readsBody, route.operationId);
    if (route.readsBody) assert.ok(op.requestBody.content["application/json"].schema.$ref, route.operationId);
  }
});

test("every JSON route answers the success envelope with data, and every code it can answer under its status", () => {
  for (const route of routeTable) {
    const op = operationOf(route.method, route.path);
    const contract = operationContracts[route.operationId];
    if (contract.responseData !== "yaml") {
      const schema = op.responses["200"].content["application/json"].schema;
      assert.deepEqual(schema.required, ["success", "data"], route.operationId);
      assert.ok(schema.properties.data, route.operationId);
    }
    assert.deepEqual(op["x-error-codes"], [...contract.errorCodes], route.operationId);
    for (const code of contract.errorCodes) {
      const response = op.responses[String(errorCatalogue[code].status)];
      assert.ok(response?.["x-error-codes"].includes(code), `${route.operationId} ${code}`);
      assert.equal(response.content["application/json"].schema.$ref, "#/components/schemas/ErrorEnvelope");
    }
  }
});

test("every $ref in the document resolves", () => {
  const refs = new Set<string>();
  const walk = (node: Json): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === "object") {
      if (typeof node.$ref === "string") refs.add(node.$ref);
      Object.values(node).forEach(walk);
    }
  };
  walk(doc);
  for (const ref of refs) {
    const target = ref
      .replace(/^#\//, "")
      .split("/")
      .reduce((node: Json, key) => node?.[key], doc);
    assert.ok(target, `unresolved ${ref}`);
  }
});

test("GET /orders documents the cursor and limit query parameters (limit 1..100, default 50)", () => {
  const params = operationOf("GET", "/orders").parameters as Json[];
  const limit = params.find((p) => p.name === "limit");
  assert.deepEqual(
    { in: limit.in, min: limit.schema.minimum, max: limit.schema.maximum, def: limit.schema.default },
    { in: "query", min: 1, max: 100, def: 50 },
  );
  assert.equal(params.find((p) => p.name === "cursor")?.in, "query");
});

test("the quote request schema lists its fields in struct order", () => {
  assert.deepEqual(Object.keys(doc.components.schemas.QuoteRequest.properties), [
    "sourceAsset",
    "destinationAsset",
    "amount",
    "recipient",
    "sourceAccount",
    "swapType",
  ]);
  assert.deepEqual(Object.keys(doc.components.schemas.PrepareQuoteRequest.properties).slice(-2), [
    "preparationId",
    "provider",
  ]);
});

test("GET /openapi.yaml answers YAML, not the envelope", () => {
  assert.ok(operationOf("GET", "/openapi.yaml").responses["200"].content["application/yaml"]);
});

test("the document validates against the OpenAPI 3.1 schema", async () => {
  const { Validator } = await import("@seriousme/openapi-schema-validator");
  const validator = new Validator();
  const result = await validator.validate(JSON.parse(JSON.stringify(doc)));
  assert.equal(validator.version, "3.1");
  assert.deepEqual(result, { valid: true });
});

test("a request's optional field admits null and has no default, a required one admits neither, as decodeBody reads them", () => {
  const quoteRequest = doc.components.schemas.QuoteRequest;
  assert.deepEqual(quoteRequest.properties.sourceAccount.anyOf.at(-1).type, "null");
  assert.deepEqual(quoteRequest.properties.swapType.anyOf.at(-1).type, "null");
  assert.equal(JSON.stringify(quoteRequest).includes('"default"'), false);
  assert.equal(quoteRequest.properties.amount.anyOf, undefined);
  const decoded = decodeBody(createQuoteRequestBody, {
    sourceAsset: "eip155:31337/slip44:60",
    destinationAsset: "eip155:31338/slip44:60",
    amount: "1",
    recipient: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
    sourceAccount: null,
    swapType: null,
  });
  assert.equal(decoded.sourceAccount, undefined);
  assert.equal(decoded.swapType, "exact-input");
});

test("every tag an operation names is declared, and the winners are unions discriminated by lane, one variant per lane", () => {
  const tags = new Set(doc.tags.map((tag: Json) => tag.name));
  for (const route of routeTable) {
    const operation = operationOf(route.method, route.path);
    assert.ok(
      operation.tags.every((tag: string) => tags.has(tag)),
      route.operationId,
    );
    assert.ok(operation.summary, route.operationId);
  }
  for (const name of ["QuoteWinner", "PreparedQuote"]) {
    const winner = doc.components.schemas[name];
    assert.equal(winner.discriminator.propertyName, "lane");
    assert.deepEqual(Object.keys(winner.discriminator.mapping).sort(), [...laneSchema.options].sort());
    assert.equal(winner.oneOf.length, laneSchema.options.length);
  }
});
