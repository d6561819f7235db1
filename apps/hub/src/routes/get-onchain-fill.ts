import type { OperationRouter } from "../http/operation.js";
import type { HubServices } from "../services/hub-services.js";

export const operationId = "getOnchainFill";

export function registerGetOnchainFill(router: OperationRouter, services: HubServices): void {
  router.add({
    operationId,
    handle: ({ params }) => services.onchain.getFill(params.orderId),
  });
}
