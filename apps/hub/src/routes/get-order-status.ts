import type { OperationRouter } from "../http/operation.js";
import type { HubServices } from "../services/hub-services.js";

export const operationId = "getOrderStatus";

export function registerGetOrderStatus(router: OperationRouter, services: HubServices): void {
  router.add({
    operationId,
    handle: ({ params, caller }) => services.orderStatus.getOrderStatus(params.orderId, caller),
  });
}
