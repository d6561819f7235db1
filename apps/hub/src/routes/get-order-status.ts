import type { OperationRouter } from "../http/operation.js";
import type { HubServices } from "../services/hub-services.js";

export const operationId = "getOrderStatus";

export function registerGetOrderStatus(router: OperationRouter, services: HubServices): void {
  router.add({
    operationId,
    handle: ({ params, organization, subject }) =>
      services.orderStatus.getOrderStatus(params.orderId as string, organization ?? "", subject as string),
  });
}
