import assert from "node:assert/strict";
import { test } from "node:test";
import { type ErrorCode, type OperationId, operationContracts, routeTable } from "../src/index.js";

function codes(operationId: OperationId): readonly ErrorCode[] {
  return operationContracts[operationId].errorCodes;
}

test("every route of the route table has an operation contract under its operationId", () => {
  for (const route of routeTable)
    assert.equal(operationContracts[route.operationId].operationId, route.operationId);
});

const rows: Array<[string, OperationId, ErrorCode, boolean]> = [
  ["GET /orders with a project id answers EPX0003", "listOrders", "EPX0003", true],
  ["no other route answers EPX0003", "getCatalog", "EPX0003", false],
  ["a POST can answer malformed JSON (EMC0028)", "createQuote", "EMC0028", true],
  ["a POST can answer body over 64 KiB (EPX0005)", "createOrder", "EPX0005", true],
  ["a GET never answers EMC0028", "getOnchainFill", "EMC0028", false],
  ["a subject route answers EIN0001 for the header", "getOrderStatus", "EIN0001", true],
  ["a charged route answers EIN0080", "prepareQuote", "EIN0080", true],
  ["an uncharged route never answers EIN0080", "getHubStatus", "EIN0080", false],
  ["every route can answer EIN0049", "getOnchainOrder", "EIN0049", true],
  ["every route can answer its database out of reach (EIN0050)", "listOrders", "EIN0050", true],
  ["a charged route sheds when the shared counters cannot answer (EIN0081)", "createOrder", "EIN0081", true],
  ["every route can meet the per-IP limiter (EMC0005)", "getCatalog", "EMC0005", true],
  ["a credential route can answer EPX0053", "getCatalog", "EPX0053", true],
  ["the public document route answers no credential code", "getOpenapi", "EPX0001", false],
  ["quote routes answer no viable route (EIN0008)", "previewQuote", "EIN0008", true],
  ["quote routes answer the in-flight shed (EIN0081)", "createQuote", "EIN0081", true],
  ["POST /order answers expiry (EIN0005)", "createOrder", "EIN0005", true],
  ["POST /order answers bad signature (EIN0010)", "createOrder", "EIN0010", true],
  ["POST /order answers EIN0006", "createOrder", "EIN0006", true],
  ["GET /order/{orderId}/status answers not found (EIN0009)", "getOrderStatus", "EIN0009", true],
  [
    "GET /order/{orderId}/status answers a refused report with no earlier state (EIN0007)",
    "getOrderStatus",
    "EIN0007",
    true,
  ],
  ["GET /status/{orderId} answers not found (EIN0009)", "getHubStatus", "EIN0009", true],
  ["fill-by-transaction answers an unknown chain domain (EIN0051)", "getOrderByTransaction", "EIN0051", true],
];

for (const [rule, operationId, code, expected] of rows) {
  test(rule, () => {
    assert.equal(codes(operationId).includes(code), expected);
  });
}

test("POST /order/openfor answers every code the spec saw on it", () => {
  for (const code of ["EIN0001", "EIN0007", "EIN0021", "EIN0050", "EIN0052", "EIN0080", "EIN0081"] as const) {
    assert.ok(codes("submitOpenForOrder").includes(code), code);
  }
});
