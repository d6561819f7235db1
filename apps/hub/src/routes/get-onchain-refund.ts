import { getOnchainRefundQuery } from "@hub/contract";
import type { OperationRouter } from "../http/operation.js";
import type { HubServices } from "../services/hub-services.js";

export const operationId = "getOnchainRefund";

export function registerGetOnchainRefund(router: OperationRouter, services: HubServices): void {
  router.add({
    operationId,
    query: getOnchainRefundQuery,
    handle: ({ params, query }) => services.onchain.getRefund(params.orderId, query.chainDomain),
  });
}
