import type { z } from "zod";
import type { ErrorCode } from "./error-catalogue.js";
import type { RequestBodySchema } from "./request-body-schema.js";
import type { OperationId } from "./route-table.js";

/** One path parameter of a route. */
export interface PathParameter {
  readonly schema: z.ZodType;
  readonly description: string;
}

/** The wire contract of one route: what it reads, what its success envelope's data holds, what it can refuse with. */
export interface OperationContract {
  readonly operationId: OperationId;
  readonly summary: string;
  /** Markdown: the spec's rules a client needs on this route. */
  readonly description: string;
  readonly pathParameters?: Readonly<Record<string, PathParameter>>;
  readonly query?: z.ZodObject;
  readonly requestBody?: RequestBodySchema<unknown>;
  /** The `data` of the success envelope, or `yaml` for the one route that answers YAML. */
  readonly responseData: z.ZodType | "yaml";
  /** Every code the route can answer, gateway and framework codes included, in catalogue order. */
  readonly errorCodes: readonly ErrorCode[];
}
