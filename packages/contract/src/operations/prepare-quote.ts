import type { OperationContract } from "../operation-contract.js";
import { operationErrorCodes } from "../operation-error-codes.js";
import type { RequestBodySchema } from "../request-body-schema.js";
import { type PrepareQuoteRequest, prepareQuoteRequestBody } from "../resources/prepare-quote-request.js";
import { preparedQuoteSchema } from "../resources/quote-winner.js";
import { QUOTE_ROUTE_RULES } from "./quote-route-rules.js";

/** POST /quote/prepare request body. */
export const prepareQuoteRequestBodySchema: RequestBodySchema<PrepareQuoteRequest> = prepareQuoteRequestBody;

/** POST /quote/prepare response data: the prepared winner. */
export const prepareQuoteResponseData = preparedQuoteSchema;

/** Every code POST /quote/prepare can answer. */
export const prepareQuoteErrorCodes = operationErrorCodes("prepareQuote", [
  "EIN0001",
  "EIN0008",
  "EIN0050",
  "EIN0081",
]);

/** POST /quote/prepare. */
export const prepareQuoteOperation: OperationContract = {
  operationId: "prepareQuote",
  summary: "Prepare: one chosen provider under a stable id",
  description: `${QUOTE_ROUTE_RULES} The body adds preparationId (\`^[A-Za-z0-9._-]{1,128}$\`, one per deliberate signing attempt) and provider (from a preview offer), validated after the quote request fields. A replay with the same body and preparationId returns the same quote and the same expiresAt; a replay never extends it. A prepared quote's template is stored with the quote, so it can be submitted through any replica. Show the prepared terms before signing.`,
  requestBody: prepareQuoteRequestBodySchema as RequestBodySchema<unknown>,
  responseData: prepareQuoteResponseData,
  errorCodes: prepareQuoteErrorCodes,
};
