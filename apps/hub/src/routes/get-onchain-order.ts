import type { OperationRouter } from "../http/operation.js";
import type { HubServices } from "../services/hub-services.js";

export const operationId = "getOnchainOrder";

export function registerGetOnchainOrder(router: OperationRouter, services: HubServices): void {
  router.add({
    operationId,
    handle: ({ params }) => services.onchain.getOrder(params.orderId),
  });
}
