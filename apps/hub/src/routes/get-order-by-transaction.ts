import type { OperationRouter } from "../http/operation.js";
import type { HubServices } from "../services/hub-services.js";

export const operationId = "getOrderByTransaction";

export function registerGetOrderByTransaction(router: OperationRouter, services: HubServices): void {
  router.add({
    operationId,
    handle: ({ params }) => services.onchain.getOrderByTransaction(params.chainDomain, params.txHash),
  });
}
