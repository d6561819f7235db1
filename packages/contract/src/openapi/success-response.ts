import { successEnvelope } from "../envelope.js";
import type { OperationContract } from "../operation-contract.js";
import { operationExamples } from "../operations/operation-examples.js";
import type { RouteDefinition } from "../route-table.js";
import { answerHeaders } from "./answer-headers.js";
import type { JsonObject } from "./to-json-schema.js";

/** The 200 answer: the success envelope around the operation's data, or the YAML of this document. */
export function successResponse(
  route: RouteDefinition,
  contract: OperationContract,
  dataSchema: unknown,
): JsonObject {
  const example = operationExamples[contract.operationId].responseData;
  if (contract.responseData === "yaml") {
    return {
      description: "The OpenAPI document, YAML.",
      headers: answerHeaders(route),
      content: { "application/yaml": { schema: { type: "string" }, example } },
    };
  }
  return {
    description: "Success envelope; `data` holds the answer.",
    headers: answerHeaders(route),
    content: {
      "application/json": {
        schema: {
          type: "object",
          required: ["success", "data"],
          properties: {
            success: { const: true },
            data: dataSchema,
            request_id: { type: "string", description: "Id of this call; also in X-Request-Id." },
          },
        },
        example: successEnvelope(example, "3c5e7a9b-1d2f-4a6b-8c0d-2e4f6a8b0c1d"),
      },
    },
  };
}
