import type { OperationContract } from "../operation-contract.js";
import { operationErrorCodes } from "../operation-error-codes.js";
import type { RequestBodySchema } from "../request-body-schema.js";
import { type QuoteRequest, quoteRequestBody } from "../resources/quote-request.js";
import { quoteWinnerSchema } from "../resources/quote-winner.js";
import { QUOTE_ROUTE_RULES } from "./quote-route-rules.js";

/** POST /quote request body. */
export const createQuoteRequestBody: RequestBodySchema<QuoteRequest> = quoteRequestBody;

/** POST /quote response data: the winner. */
export const createQuoteResponseData = quoteWinnerSchema;

/** Every code POST /quote can answer. */
export const createQuoteErrorCodes = operationErrorCodes("createQuote", [
  "EIN0001",
  "EIN0008",
  "EIN0050",
  "EIN0081",
]);

/** POST /quote. */
export const createQuoteOperation: OperationContract = {
  operationId: "createQuote",
  summary: "Quote: one round, the winner disclosed",
  description: `${QUOTE_ROUTE_RULES} The winner expires about 30 s after issue. A non-prepared winner must be submitted through the replica that quoted it; its template is held there for 30 s (20 min on the proxy lanes).`,
  requestBody: createQuoteRequestBody as RequestBodySchema<unknown>,
  responseData: createQuoteResponseData,
  errorCodes: createQuoteErrorCodes,
};
