import type { OperationContract } from "../operation-contract.js";
import { operationErrorCodes } from "../operation-error-codes.js";

/** Every code GET /openapi.yaml can answer. */
export const getOpenapiErrorCodes = operationErrorCodes("getOpenapi", []);

/** GET /openapi.yaml. */
export const getOpenapiOperation: OperationContract = {
  operationId: "getOpenapi",
  summary: "This document",
  description:
    "The OpenAPI 3.1 document of the API as YAML: the one route that answers without the envelope on success. It needs no credential (a decision: the spec leaves its credential open).",
  responseData: "yaml",
  errorCodes: getOpenapiErrorCodes,
};
