import type { OperationContract } from "../operation-contract.js";
import { operationErrorCodes } from "../operation-error-codes.js";
import { onchainOrderSchema } from "../resources/onchain-views.js";
import { onchainOrderIdParameter } from "./path-parameters.js";

/** GET /onchain/{orderId}/order response data. */
export const getOnchainOrderResponseData = onchainOrderSchema;

/** Every code GET /onchain/{orderId}/order can answer. */
export const getOnchainOrderErrorCodes = operationErrorCodes("getOnchainOrder", ["EIN0009"]);

/** GET /onchain/{orderId}/order. */
export const getOnchainOrderOperation: OperationContract = {
  operationId: "getOnchainOrder",
  summary: "The escrow's raw order tuple",
  description:
    "The StandardOrder as the escrow's Open event carried it, every field a string: what refund(order) and finalise take. Not scoped to an organization. An id with no observed Open: EIN0009. (The spec names this view without its path; this path is a decision.)",
  pathParameters: { orderId: onchainOrderIdParameter },
  responseData: getOnchainOrderResponseData,
  errorCodes: getOnchainOrderErrorCodes,
};
