import type { OperationContract } from "../operation-contract.js";
import { operationErrorCodes } from "../operation-error-codes.js";
import { onchainTxOrderSchema } from "../resources/onchain-views.js";
import { chainDomainParameter, txHashParameter } from "./path-parameters.js";

/** GET /onchain/tx/{chainDomain}/{txHash}/order response data. */
export const getOrderByTransactionResponseData = onchainTxOrderSchema;

/** Every code GET /onchain/tx/{chainDomain}/{txHash}/order can answer. */
export const getOrderByTransactionErrorCodes = operationErrorCodes("getOrderByTransaction", ["EIN0051"]);

/** GET /onchain/tx/{chainDomain}/{txHash}/order. */
export const getOrderByTransactionOperation: OperationContract = {
  operationId: "getOrderByTransaction",
  summary: "The order a transaction belongs to",
  description:
    "Resolves a transaction hash to its on-chain order id; the way to follow a deposit whose registration was refused (then GET /onchain/{orderId}/fill). chainDomain is not validated: an unknown or miscased domain answers EIN0051 (no watermark for that domain). A transaction above the watermark may resolve later.",
  pathParameters: { chainDomain: chainDomainParameter, txHash: txHashParameter },
  responseData: getOrderByTransactionResponseData,
  errorCodes: getOrderByTransactionErrorCodes,
};
