import type { OperationRouter } from "../http/operation.js";
import type { HubServices } from "../services/hub-services.js";

export const operationId = "getOnchainRefund";

export function registerGetOnchainRefund(router: OperationRouter, services: HubServices): void {
  router.add({
    operationId,
    handle: ({ params }) => services.onchain.getRefund(params.orderId as string),
  });
}
