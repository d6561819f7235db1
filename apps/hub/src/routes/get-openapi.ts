import { RawBody } from "../http/answer.js";
import type { OperationRouter } from "../http/operation.js";
import type { HubServices } from "../services/hub-services.js";

export const operationId = "getOpenapi";

export function registerGetOpenapi(router: OperationRouter, services: HubServices): void {
  const document = new RawBody("application/yaml", services.openapiYaml);
  router.add({ operationId, handle: () => document });
}
