import { errorEnvelope } from "../envelope.js";
import { type ErrorCode, errorCatalogue } from "../error-catalogue.js";
import { errorClientActions } from "../error-client-actions.js";
import type { OperationContract } from "../operation-contract.js";
import type { RouteDefinition } from "../route-table.js";
import { answerHeaders } from "./answer-headers.js";
import { COMPONENT_REF, type JsonObject } from "./to-json-schema.js";

function codesByStatus(codes: readonly ErrorCode[]): Map<number, ErrorCode[]> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = errorCatalogue[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return new Map([...byStatus.entries()].sort(([a], [b]) => a - b));
}

/** Busy codes carry their back-off in error_params[0] (ms); the example shows one. */
const EXAMPLE_PARAMS: Partial<Record<ErrorCode, string[]>> = {
  EIN0080: ["1500"],
  EPX0080: ["1000"],
  EPX0082: ["1000"],
};

function errorExample(code: ErrorCode, route: RouteDefinition): JsonObject {
  const reference =
    code === "EIN0001" ? (route.subjectRequired ? "x-service-subject" : "orderId") : undefined;
  return {
    summary: `${code} (${errorCatalogue[code].block})`,
    description: errorClientActions[code],
    value: errorEnvelope(code, "9f0c1d2e-3a4b-4c5d-8e6f-7a8b9c0d1e2f", {
      ...(reference ? { reference } : {}),
      ...(EXAMPLE_PARAMS[code] ? { params: EXAMPLE_PARAMS[code] } : {}),
    }),
  };
}

/** One response per status the operation's codes answer with, each code listed and shown by an example. */
export function errorResponses(route: RouteDefinition, contract: OperationContract): JsonObject {
  const responses: JsonObject = {};
  for (const [status, codes] of codesByStatus(contract.errorCodes)) {
    const lines = codes.map(
      (code) => `- \`${code}\` (${errorCatalogue[code].block}): ${errorCatalogue[code].summary}`,
    );
    const headers = answerHeaders(route);
    if (status === 429) headers["Retry-After"] = { $ref: "#/components/headers/RetryAfter" };
    responses[String(status)] = {
      description: `Refusal in the error envelope. Codes on this status:\n\n${lines.join("\n")}`,
      headers,
      content: {
        "application/json": {
          schema: { $ref: `${COMPONENT_REF}ErrorEnvelope` },
          examples: Object.fromEntries(codes.map((code) => [code, errorExample(code, route)])),
        },
      },
      "x-error-codes": codes,
    };
  }
  return responses;
}
