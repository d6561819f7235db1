import type { OperationContract } from "../operation-contract.js";
import { operationErrorCodes } from "../operation-error-codes.js";
import { upstreamOrderStatusSchema } from "../resources/upstream-order-status.js";
import { hubOrderIdParameter } from "./path-parameters.js";

/** GET /order/{orderId}/status response data. */
export const getOrderStatusResponseData = upstreamOrderStatusSchema;

/** Every code GET /order/{orderId}/status can answer. */
export const getOrderStatusErrorCodes = operationErrorCodes("getOrderStatus", [
  "EIN0001",
  "EIN0007",
  "EIN0009",
  "EIN0050",
  "EIN0081",
]);

/** GET /order/{orderId}/status. */
export const getOrderStatusOperation: OperationContract = {
  operationId: "getOrderStatus",
  summary: "Upstream status of an openFor order (advisory)",
  description:
    "Header `X-Service-Subject` required. Advisory only: neither finalized, settled nor filled proves settlement. Served from a 2 s cache; if a refresh fails the last good state is served with upstreamStale true. Poll every 2-3 s; stop at finalized, failed or refunded. Once the state is executed, read GET /onchain/{orderId}/fill by onchainOrderId and hand off to it after a few minutes without progress (an EVM gasless order can stay executed for good). Unknown id: EIN0009. A refused upstream report with no earlier state: EIN0007. Open to a project id.",
  pathParameters: { orderId: hubOrderIdParameter },
  responseData: getOrderStatusResponseData,
  errorCodes: getOrderStatusErrorCodes,
};
