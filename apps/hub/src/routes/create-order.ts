import { orderCreateRequestBody } from "@hub/contract";
import type { OperationRouter } from "../http/operation.js";
import type { HubServices } from "../services/hub-services.js";

export const operationId = "createOrder";

export function registerCreateOrder(router: OperationRouter, services: HubServices): void {
  router.add({
    operationId,
    body: orderCreateRequestBody,
    handle: ({ body, caller }) => services.orders.createOrder(body, caller),
  });
}
