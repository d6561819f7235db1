import type { OperationContract } from "../operation-contract.js";
import type { OperationId } from "../route-table.js";
import { createOrderOperation } from "./create-order.js";
import { createQuoteOperation } from "./create-quote.js";
import { getCatalogOperation } from "./get-catalog.js";
import { getHubStatusOperation } from "./get-hub-status.js";
import { getOnchainFillOperation } from "./get-onchain-fill.js";
import { getOnchainOrderOperation } from "./get-onchain-order.js";
import { getOnchainRefundOperation } from "./get-onchain-refund.js";
import { getOpenapiOperation } from "./get-openapi.js";
import { getOrderByTransactionOperation } from "./get-order-by-transaction.js";
import { getOrderStatusOperation } from "./get-order-status.js";
import { listOrdersOperation } from "./list-orders.js";
import { prepareQuoteOperation } from "./prepare-quote.js";
import { previewQuoteOperation } from "./preview-quote.js";
import { submitOpenForOrderOperation } from "./submit-open-for-order.js";

/** The wire contract of every route, by operationId. */
export const operationContracts: Readonly<Record<OperationId, OperationContract>> = {
  getCatalog: getCatalogOperation,
  getOpenapi: getOpenapiOperation,
  createQuote: createQuoteOperation,
  previewQuote: previewQuoteOperation,
  prepareQuote: prepareQuoteOperation,
  submitOpenForOrder: submitOpenForOrderOperation,
  createOrder: createOrderOperation,
  getOrderStatus: getOrderStatusOperation,
  getHubStatus: getHubStatusOperation,
  listOrders: listOrdersOperation,
  getOnchainFill: getOnchainFillOperation,
  getOrderByTransaction: getOrderByTransactionOperation,
  getOnchainRefund: getOnchainRefundOperation,
  getOnchainOrder: getOnchainOrderOperation,
};
