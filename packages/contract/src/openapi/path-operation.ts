import type { routeTable } from "../route-table.js";

type Route = (typeof routeTable)[number];

import { operationContracts } from "../operations/operation-contracts.js";
import { operationExamples } from "../operations/operation-examples.js";
import { OPERATION_TAGS } from "./document-tags.js";
import { errorResponses } from "./error-responses.js";
import { operationParameters } from "./operation-parameters.js";
import type { OperationSchemas } from "./operation-schemas.js";
import { successResponse } from "./success-response.js";
import type { JsonObject } from "./to-json-schema.js";

function securityOf(route: Route): Array<Record<string, string[]>> {
  if (route.access === "public") return [];
  if (route.access === "key-only") return [{ apiKey: [] }];
  return [{ apiKey: [] }, { projectId: [] }];
}

/** The route's operation: its parameters, body, answers and the codes it may refuse with. */
export function pathOperation(route: Route, { requests, queries, responses }: OperationSchemas): JsonObject {
  const contract = operationContracts[route.operationId];
  const example = operationExamples[contract.operationId];
  const parameters = operationParameters(route, queries);
  const operation: JsonObject = {
    operationId: route.operationId,
    tags: [OPERATION_TAGS[contract.operationId]],
    summary: contract.summary,
    description: contract.description,
    security: securityOf(route),
  };
  if (parameters.length > 0) operation.parameters = parameters;
  if (contract.requestBody) {
    operation.requestBody = {
      required: true,
      content: {
        "application/json": {
          schema: (requests.properties as JsonObject)[route.operationId],
          example: example.requestBody,
        },
      },
    };
  }
  operation.responses = {
    "200": successResponse(route, contract, (responses.properties as JsonObject)[route.operationId]),
    ...errorResponses(route, contract),
  };
  operation["x-error-codes"] = [...contract.errorCodes];
  operation["x-timeout-seconds"] = route.timeoutClass === "quote" ? 20 : 10;
  return operation;
}
