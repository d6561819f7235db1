import type { OperationContract } from "../operation-contract.js";
import { operationErrorCodes } from "../operation-error-codes.js";
import { onchainRefundQuerySchema, onchainRefundSchema } from "../resources/onchain-views.js";
import { onchainOrderIdParameter } from "./path-parameters.js";

/** GET /onchain/{orderId}/refund query parameters. */
export const getOnchainRefundQuery = onchainRefundQuerySchema;

/** GET /onchain/{orderId}/refund response data. */
export const getOnchainRefundResponseData = onchainRefundSchema;

/** Every code GET /onchain/{orderId}/refund can answer. */
export const getOnchainRefundErrorCodes = operationErrorCodes("getOnchainRefund", ["EIN0001"]);

/** GET /onchain/{orderId}/refund. */
export const getOnchainRefundOperation: OperationContract = {
  operationId: "getOnchainRefund",
  summary: "Whether an order can be refunded, and the transaction that does it",
  description:
    "Not scoped to an organization. A refund pays only the order's own user, whoever sends the step; the service never sends it. The escrow allows it after the order's expires when unsettled.",
  pathParameters: { orderId: onchainOrderIdParameter },
  query: getOnchainRefundQuery,
  responseData: getOnchainRefundResponseData,
  errorCodes: getOnchainRefundErrorCodes,
};
