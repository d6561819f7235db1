import { quoteRequestBody } from "@hub/contract";
import { PrerenderedJson } from "../http/answer.js";
import type { OperationRouter } from "../http/operation.js";
import { resolveQuoteRoute } from "../quotes/resolve-quote-route.js";
import type { HubServices } from "../services/hub-services.js";

export const operationId = "createQuote";

export function registerCreateQuote(router: OperationRouter, services: HubServices): void {
  router.add({
    operationId,
    body: quoteRequestBody,
    // An asset route the catalog cannot serve is refused before the charge (spec common rule 5).
    resolve: ({ body }) => resolveQuoteRoute(services.catalog.catalog, body),
    // The answer's data is the text the quotes row stores: the winner serialized once.
    handle: async ({ body, resolved, caller, signal }) =>
      new PrerenderedJson((await services.quotes.quote(body, resolved, caller, signal)).winnerJson),
  });
}
