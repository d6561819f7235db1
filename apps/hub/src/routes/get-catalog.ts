import { PrerenderedJson } from "../http/answer.js";
import type { OperationRouter } from "../http/operation.js";
import type { HubServices } from "../services/hub-services.js";

export const operationId = "getCatalog";

export function registerGetCatalog(router: OperationRouter, services: HubServices): void {
  const data = new PrerenderedJson(services.catalog.json);
  router.add({ operationId, handle: () => data });
}
