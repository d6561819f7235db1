import type { OperationContract } from "../operation-contract.js";
import { operationErrorCodes } from "../operation-error-codes.js";
import type { RequestBodySchema } from "../request-body-schema.js";
import { type QuoteRequest, quoteRequestBody } from "../resources/quote-request.js";
import { quotePreviewSchema } from "../resources/quote-winner.js";
import { QUOTE_ROUTE_RULES } from "./quote-route-rules.js";

/** POST /quote/preview request body. */
export const previewQuoteRequestBody: RequestBodySchema<QuoteRequest> = quoteRequestBody;

/** POST /quote/preview response data: indicative offers. */
export const previewQuoteResponseData = quotePreviewSchema;

/** Every code POST /quote/preview can answer. */
export const previewQuoteErrorCodes = operationErrorCodes("previewQuote", [
  "EIN0001",
  "EIN0008",
  "EIN0050",
  "EIN0081",
]);

/** POST /quote/preview. */
export const previewQuoteOperation: OperationContract = {
  operationId: "previewQuote",
  summary: "Preview: indicative offers with provider ids",
  description: `${QUOTE_ROUTE_RULES} Offers are indicative; pass an offer's provider to POST /quote/prepare to get a signable quote. Prepared terms can differ from preview terms.`,
  requestBody: previewQuoteRequestBody as RequestBodySchema<unknown>,
  responseData: previewQuoteResponseData,
  errorCodes: previewQuoteErrorCodes,
};
