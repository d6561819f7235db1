import type { OperationContract } from "../operation-contract.js";
import { operationErrorCodes } from "../operation-error-codes.js";
import { onchainFillSchema } from "../resources/onchain-views.js";
import { onchainOrderIdParameter } from "./path-parameters.js";

/** GET /onchain/{orderId}/fill response data. */
export const getOnchainFillResponseData = onchainFillSchema;

/** Every code GET /onchain/{orderId}/fill can answer. */
export const getOnchainFillErrorCodes = operationErrorCodes("getOnchainFill", []);

/** GET /onchain/{orderId}/fill. */
export const getOnchainFillOperation: OperationContract = {
  operationId: "getOnchainFill",
  summary: "Fill and settle facts of an on-chain order id",
  description:
    "Not scoped to an organization. Show money facts from the on-chain views only. An id nothing is known about reads like not filled yet. Poll every 2-3 s (2 s cache); stop at settled.",
  pathParameters: { orderId: onchainOrderIdParameter },
  responseData: getOnchainFillResponseData,
  errorCodes: getOnchainFillErrorCodes,
};
