import type { OperationRouter } from "../http/operation.js";
import type { HubServices } from "../services/hub-services.js";
import { registerCreateOrder } from "./create-order.js";
import { registerCreateQuote } from "./create-quote.js";
import { registerGetCatalog } from "./get-catalog.js";
import { registerGetHubStatus } from "./get-hub-status.js";
import { registerGetOnchainFill } from "./get-onchain-fill.js";
import { registerGetOnchainOrder } from "./get-onchain-order.js";
import { registerGetOnchainRefund } from "./get-onchain-refund.js";
import { registerGetOpenapi } from "./get-openapi.js";
import { registerGetOrderByTransaction } from "./get-order-by-transaction.js";
import { registerGetOrderStatus } from "./get-order-status.js";
import { registerListOrders } from "./list-orders.js";
import { registerPrepareQuote } from "./prepare-quote.js";
import { registerPreviewQuote } from "./preview-quote.js";
import { registerSubmitOpenForOrder } from "./submit-open-for-order.js";

/** Every route of the hub, in the spec's route-table order, then the raw order tuple view. */
export function registerHubRoutes(router: OperationRouter, services: HubServices): void {
  registerGetCatalog(router, services);
  registerGetOpenapi(router, services);
  registerCreateQuote(router, services);
  registerPreviewQuote(router, services);
  registerPrepareQuote(router, services);
  registerSubmitOpenForOrder(router, services);
  registerCreateOrder(router, services);
  registerGetOrderStatus(router, services);
  registerGetHubStatus(router, services);
  registerListOrders(router, services);
  registerGetOnchainFill(router, services);
  registerGetOrderByTransaction(router, services);
  registerGetOnchainRefund(router, services);
  registerGetOnchainOrder(router, services);
}
