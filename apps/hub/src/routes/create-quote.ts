import { quoteRequestBody } from "@hub/contract";
import type { OperationRouter } from "../http/operation.js";
import type { HubServices } from "../services/hub-services.js";

export const operationId = "createQuote";

export function registerCreateQuote(router: OperationRouter, services: HubServices): void {
  router.add({
    operationId,
    body: quoteRequestBody,
    handle: ({ body, organization, subject, signal }) =>
      services.quotes.quote(body, { organization: organization!, subject: subject! }, signal),
  });
}
