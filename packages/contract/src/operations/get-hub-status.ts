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
  description: [
    "The hub's view of an open-flow registration (POST /order), from the reconciler's observations: registered, then deposited (the bridge deposit the quote named is seen on the source chain), then released (the bridge's release of that deposit is seen on the destination chain, final). A solver-swap registration is recorded (final) and moves no funds.",
    "Scoped by organization, not by subject: a backend serving several users must answer it for each user's own orders only. An unknown id, another organization's order, or an order created through openFor (follow it with GET /order/{orderId}/status) is EIN0009.",
    "Served from a 2 s cache; poll every 2-3 s and stop when `final` is true. The watermarks move only when the reconciler processes a new observation on a chain, so on a quiet chain they can lag far behind.",
  ].join("\n\n"),
  pathParameters: { orderId: openFlowOrderIdParameter },
  responseData: getHubStatusResponseData,
  errorCodes: getHubStatusErrorCodes,
};
