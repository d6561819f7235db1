import assert from "node:assert/strict";
import { test } from "node:test";
import { type OperationId, routeTable } from "@hub/contract";
import { type UsageRouteKind, usageRouteKind } from "../src/index.js";

/** One row per route of the spec's route table: what the API keys page counts its calls as. */
const KINDS: Record<OperationId, UsageRouteKind> = {
  getCatalog: "other",
  getOpenapi: "other",
  createQuote: "quote",
  previewQuote: "quote",
  prepareQuote: "quote",
  submitOpenForOrder: "order",
  createOrder: "order",
  getOrderStatus: "status",
  getHubStatus: "status",
  listOrders: "other",
  getOnchainFill: "status",
  getOrderByTransaction: "status",
  getOnchainRefund: "status",
  getOnchainOrder: "status",
};

test("every route counts as quote, order, status or other, by the table", () => {
  for (const route of routeTable) {
    assert.equal(usageRouteKind(route), KINDS[route.operationId], route.operationId);
  }
  assert.deepEqual(Object.keys(KINDS).sort(), routeTable.map((route) => route.operationId).sort());
});
