import { quoteRequestBody } from "@hub/contract";
import type { OperationRouter } from "../http/operation.js";
import { resolveQuoteRoute } from "../quotes/resolve-quote-route.js";
import type { HubServices } from "../services/hub-services.js";

export const operationId = "previewQuote";

export function registerPreviewQuote(router: OperationRouter, services: HubServices): void {
  router.add({
    operationId,
    body: quoteRequestBody,
    // An asset route the catalog cannot serve is refused before the charge (spec common rule 5).
    resolve: ({ body }) => resolveQuoteRoute(services.catalog.catalog, body),
    handle: ({ body, resolved, caller, signal }) => services.quotes.preview(body, resolved, caller, signal),
  });
}
