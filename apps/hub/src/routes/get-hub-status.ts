import type { OperationRouter } from "../http/operation.js";
import type { HubServices } from "../services/hub-services.js";

export const operationId = "getHubStatus";

export function registerGetHubStatus(router: OperationRouter, services: HubServices): void {
  router.add({
    operationId,
    handle: ({ params, caller }) => services.orderStatus.getHubStatus(params.orderId, caller.organization),
  });
}
