import { quoteRequestBody } from "@hub/contract";
import type { OperationRouter } from "../http/operation.js";
import type { HubServices } from "../services/hub-services.js";

export const operationId = "previewQuote";

export function registerPreviewQuote(router: OperationRouter, services: HubServices): void {
  router.add({
    operationId,
    body: quoteRequestBody,
    handle: ({ body, organization, subject, signal }) =>
      services.quotes.preview(body, { organization: organization!, subject: subject! }, signal),
  });
}
