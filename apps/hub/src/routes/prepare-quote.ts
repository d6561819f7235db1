import { prepareQuoteRequestBody } from "@hub/contract";
import type { OperationRouter } from "../http/operation.js";
import type { HubServices } from "../services/hub-services.js";

export const operationId = "prepareQuote";

export function registerPrepareQuote(router: OperationRouter, services: HubServices): void {
  router.add({
    operationId,
    body: prepareQuoteRequestBody,
    handle: ({ body, organization, subject, signal }) =>
      services.quotes.prepare(body, { organization: organization!, subject: subject! }, signal),
  });
}
