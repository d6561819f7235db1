import type { OperationContract } from "../operation-contract.js";
import { operationErrorCodes } from "../operation-error-codes.js";
import { hubOrderStatusSchema } from "../resources/hub-order-status.js";
import { openFlowOrderIdParameter } from "./path-parameters.js";

/** GET /status/{orderId} response data. */
export const getHubStatusResponseData = hubOrderStatusSchema;

/** Every code GET /status/{orderId} can answer. */
export const getHubStatusErrorCodes = operationErrorCodes("getHubStatus", ["EIN0009"]);

/** GET /status/{orderId}. */
export const getHubStatusOperation: OperationContract = {
  operationId: "getHubStatus",
  summary: "Hub status of an open-flow order",
  description:
    "Not scoped by subject: a backend serving several users must answer it for each user's own orders only. Served from a 2 s cache; poll every 2-3 s and stop at completed or failed. The watermarks move only when the reconciler processes a new observation on a chain, so on a quiet chain they can lag far behind. Unknown id: EIN0009.",
  pathParameters: { orderId: openFlowOrderIdParameter },
  responseData: getHubStatusResponseData,
  errorCodes: getHubStatusErrorCodes,
};
