import type { OperationContract } from "../operation-contract.js";
import { operationErrorCodes } from "../operation-error-codes.js";
import { listOrdersQuerySchema } from "../resources/list-orders-query.js";
import { ordersListSchema } from "../resources/order-list-entry.js";

/** GET /orders query parameters, in validation order. */
export const listOrdersQuery = listOrdersQuerySchema;

/** GET /orders response data. */
export const listOrdersResponseData = ordersListSchema;

/** Every code GET /orders can answer. */
export const listOrdersErrorCodes = operationErrorCodes("listOrders", ["EIN0001"]);

/** GET /orders. */
export const listOrdersOperation: OperationContract = {
  operationId: "listOrders",
  summary: "The subject's openFor orders with their chain facts",
  description:
    "Secret key only (a project id answers EPX0003, 404). Header `X-Service-Subject` required. Lists the organization's openFor submissions under the subject sent, each joined with recorded chain facts; open-flow registrations are not listed. Ordered by submittedAt ascending; records keyed by orderId: deduplicate by id when using an overlapping cursor. data.subject echoes the subject sent: refuse a page whose subject differs. Scoping check: list with a subject no user has (`canary-` plus a fresh random id); the answer must hold no orders and echo that subject, otherwise serve no history. An invalid cursor or limit is EIN0001 with that parameter's name.",
  query: listOrdersQuery,
  responseData: listOrdersResponseData,
  errorCodes: listOrdersErrorCodes,
};
