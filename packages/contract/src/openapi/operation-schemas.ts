import type { z } from "zod";
import { errorEnvelopeSchema } from "../envelope-schemas.js";
import { operationContracts } from "../operations/operation-contracts.js";
import { routeTable } from "../route-table.js";
import { type JsonObject, toJsonSchema } from "./to-json-schema.js";

/** Every operation's request body, query and answer as JSON Schema, keyed by operationId, and the components they share. */
export interface OperationSchemas {
  readonly requests: JsonObject;
  readonly queries: JsonObject;
  readonly responses: JsonObject;
  readonly components: Record<string, unknown>;
}

export function operationSchemas(): OperationSchemas {
  const requestSchemas: Record<string, z.ZodType> = {};
  const querySchemas: Record<string, z.ZodType> = {};
  const responseSchemas: Record<string, z.ZodType> = {};
  for (const route of routeTable) {
    const contract = operationContracts[route.operationId];
    if (contract.requestBody) requestSchemas[route.operationId] = contract.requestBody.object;
    if (contract.query) querySchemas[route.operationId] = contract.query;
    if (contract.responseData !== "yaml") responseSchemas[route.operationId] = contract.responseData;
  }
  const requests = toJsonSchema(requestSchemas, "input");
  const queries = toJsonSchema(querySchemas, "output");
  const responses = toJsonSchema(responseSchemas, "output");

  const components: Record<string, unknown> = {};
  mergeComponents(components, requests.$defs);
  mergeComponents(components, queries.$defs);
  mergeComponents(components, responses.$defs);
  const envelopes = toJsonSchema({ errorEnvelope: errorEnvelopeSchema }, "output");
  mergeComponents(components, envelopes.$defs);
  return { requests, queries, responses, components };
}

function mergeComponents(target: Record<string, unknown>, defs: unknown): void {
  for (const [id, schema] of Object.entries((defs ?? {}) as JsonObject)) {
    const existing = target[id];
    if (existing !== undefined && JSON.stringify(existing) !== JSON.stringify(schema)) {
      throw new Error(`schema ${id} differs between request and response use`);
    }
    target[id] = schema;
  }
}
