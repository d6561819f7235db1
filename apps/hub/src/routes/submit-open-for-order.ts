import { openForRequestBody } from "@hub/contract";
import type { OperationRouter } from "../http/operation.js";
import type { HubServices } from "../services/hub-services.js";

export const operationId = "submitOpenForOrder";

export function registerSubmitOpenForOrder(router: OperationRouter, services: HubServices): void {
  router.add({
    operationId,
    body: openForRequestBody,
    handle: ({ body, caller, signal }) => services.orders.submitOpenFor(body, caller, signal),
  });
}
