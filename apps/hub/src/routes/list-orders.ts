import { listOrdersQuery } from "@hub/contract";
import type { OperationRouter } from "../http/operation.js";
import type { HubServices } from "../services/hub-services.js";

export const operationId = "listOrders";

export function registerListOrders(router: OperationRouter, services: HubServices): void {
  router.add({
    operationId,
    query: listOrdersQuery,
    handle: ({ query, caller }) =>
      services.orderStatus.listOrders(caller, {
        ...(query.cursor === undefined ? {} : { cursor: query.cursor }),
        limit: query.limit,
      }),
  });
}
