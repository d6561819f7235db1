import { type OperationId, type RequestBodySchema, type RouteDefinition, routeTable } from "@hub/contract";
import type { z } from "zod";

/** What a handler receives once the shared HTTP rules passed: decoded, validated, charged. */
export interface OperationInput<Body, Query> {
  requestId: string;
  params: Readonly<Record<string, string>>;
  body: Body;
  query: Query;
  /** The X-Service-Subject, validated; undefined on routes that do not require it. */
  subject: string | undefined;
  /** The organization the gateway set from the credential (X-Service-Org). */
  organization: string | undefined;
  /** Fires when the caller gave up (gateway timeout or disconnect). */
  signal: AbortSignal | undefined;
}

/** One route's contract on the hub: its operationId, its input schemas and its thin handler. */
export interface Operation<
  Body = unknown,
  QuerySchema extends z.ZodObject = z.ZodObject,
  Resolved = undefined,
> {
  readonly operationId: OperationId;
  /** Form fields of the JSON body, in struct order (routes that read a body). */
  readonly body?: RequestBodySchema<Body>;
  /** Query fields, in struct order (routes whose query string reaches the hub). */
  readonly query?: QuerySchema;
  /**
   * Route-specific resolution (spec common rule 5, step 4): refusals that come after the form fields
   * and before the organization's bucket is charged, so they cost nothing. What it resolves reaches
   * the handler as `resolved`.
   */
  resolve?(input: OperationInput<Body, z.output<QuerySchema>>): Resolved | Promise<Resolved>;
  handle(
    input: OperationInput<Body, z.output<QuerySchema>> & { resolved: Resolved },
  ): unknown | Promise<unknown>;
}

/** An operation joined with its line of the route table. */
export interface RegisteredOperation {
  readonly route: RouteDefinition;
  readonly operation: Operation<unknown, z.ZodObject, unknown>;
}

/** Collects the hub's operations in registration order; the route list registers them in the spec's order. */
export interface OperationRouter {
  add<Body, QuerySchema extends z.ZodObject, Resolved = undefined>(
    operation: Operation<Body, QuerySchema, Resolved>,
  ): void;
  readonly operations: readonly RegisteredOperation[];
  find(operationId: string): RegisteredOperation | undefined;
}

export function createOperationRouter(): OperationRouter {
  const operations: RegisteredOperation[] = [];
  const byId = new Map<string, RegisteredOperation>();
  return {
    operations,
    add(operation) {
      const route = routeTable.find((r) => r.operationId === operation.operationId);
      if (!route) throw new Error(`operation ${operation.operationId} is not in the route table`);
      if (byId.has(operation.operationId)) throw new Error(`operation ${operation.operationId} added twice`);
      if (operation.body && !route.readsBody) throw new Error(`${operation.operationId} reads no body`);
      if (operation.query && !route.forwardsQuery) throw new Error(`${operation.operationId} gets no query`);
      const registered = {
        route,
        operation: operation as unknown as Operation<unknown, z.ZodObject, unknown>,
      };
      operations.push(registered);
      byId.set(operation.operationId, registered);
    },
    find(operationId) {
      return byId.get(operationId);
    },
  };
}
