import type { UpstreamOrderStatus } from "@hub/contract";
import { PrerenderedJson } from "../http/answer.js";
import type { OperationRouter } from "../http/operation.js";
import type { HubServices } from "../services/hub-services.js";

export const operationId = "getOrderStatus";

export function registerGetOrderStatus(router: OperationRouter, services: HubServices): void {
  // A view served from the cache is the same object until it is refreshed, so its JSON is rendered
  // once per refresh instead of once per read (the same bytes: PrerenderedJson).
  const rendered = new WeakMap<UpstreamOrderStatus, PrerenderedJson>();
  router.add({
    operationId,
    handle: async ({ params, caller }) => {
      const status = await services.orderStatus.getOrderStatus(params.orderId, caller);
      let json = rendered.get(status);
      if (json === undefined) {
        json = new PrerenderedJson(JSON.stringify(status));
        rendered.set(status, json);
      }
      return json;
    },
  });
}
