import assert from "node:assert/strict";
import { test } from "node:test";
import { z } from "zod";
import { decodeBody, decodeQuery, operationContracts, operationExamples, routeTable } from "../src/index.js";

for (const route of routeTable) {
  const contract = operationContracts[route.operationId];
  const example = operationExamples[route.operationId];

  test(`${route.operationId}: the example request is one the route accepts`, () => {
    assert.equal(example.requestBody !== undefined, contract.requestBody !== undefined);
    if (contract.requestBody) decodeBody(contract.requestBody, example.requestBody);
    if (example.query) {
      assert.ok(contract.query, "an example query on a route without one");
      decodeQuery(contract.query, example.query);
    }
    assert.deepEqual(
      Object.keys(example.pathParameters ?? {}).sort(),
      Object.keys(contract.pathParameters ?? {}).sort(),
    );
    for (const [name, value] of Object.entries(example.pathParameters ?? {})) {
      z.parse(contract.pathParameters?.[name]?.schema as z.ZodType, value);
    }
  });

  test(`${route.operationId}: the example answer is one the contract describes`, () => {
    if (contract.responseData === "yaml") {
      assert.equal(typeof example.responseData, "string");
      return;
    }
    const parsed = contract.responseData.safeParse(example.responseData);
    assert.ok(parsed.success, parsed.success ? "" : JSON.stringify(parsed.error.issues));
  });
}
