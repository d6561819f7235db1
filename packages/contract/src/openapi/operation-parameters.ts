import { z } from "zod";
import { operationContracts } from "../operations/operation-contracts.js";
import { operationExamples } from "../operations/operation-examples.js";
import type { routeTable } from "../route-table.js";

type Route = (typeof routeTable)[number];

import type { JsonObject } from "./to-json-schema.js";

/** The route's path parameters, then its query parameters, then the subject header where it is required. */
export function operationParameters(route: Route, queries: JsonObject): unknown[] {
  const contract = operationContracts[route.operationId];
  const example = operationExamples[contract.operationId];
  const parameters: unknown[] = [];
  for (const [name, parameter] of Object.entries(contract.pathParameters ?? {})) {
    const schema = z.toJSONSchema(parameter.schema, { io: "input" }) as JsonObject;
    delete schema.$schema;
    parameters.push({
      name,
      in: "path",
      required: true,
      description: parameter.description,
      schema,
      example: example.pathParameters?.[name],
    });
  }
  const queryProperties = ((queries.properties as JsonObject)[route.operationId] as JsonObject | undefined)
    ?.properties as Record<string, JsonObject> | undefined;
  for (const [name, schema] of Object.entries(queryProperties ?? {})) {
    const { description, ...rest } = schema;
    const query = { name, in: "query", required: false, description, schema: rest };
    const value = example.query?.[name];
    if (value === undefined) parameters.push(query);
    else parameters.push({ ...query, example: rest.type === "integer" ? Number(value) : value });
  }
  if (route.subjectRequired) parameters.push({ $ref: "#/components/parameters/ServiceSubject" });
  return parameters;
}
