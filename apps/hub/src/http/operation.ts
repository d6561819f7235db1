import { type OperationId, type RequestBodySchema, type RouteDefinition, routeTable } from "@hub/contract";
import type { z } from "zod";
import type { Caller } from "../services/caller.js";

/** The route table's line of an operation, with its literal path and flags. */
type RouteOf<Id extends OperationId> = Extract<(typeof routeTable)[number], { operationId: Id }>;

type ParamNames<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}`
  ? Name | ParamNames<Rest>
  : never;

/** A route's path parameters: exactly the `{name}` segments of its path. */
export type PathParams<Path extends string> = { readonly [Name in ParamNames<Path>]: string };

/**
 * Who calls, as the dispatcher established it: the subject on routes that require one, and the
 * organization the gateway set from the credential on every route that is not public.
 */
export type CallerOf<Route extends RouteDefinition> = Route["subjectRequired"] extends true
  ? Caller
  : Route["access"] extends "public"
    ? undefined
    : Pick<Caller, "organization">;

/** What route resolution receives: decoded, validated, not yet charged. */
export interface ResolveInput<Id extends OperationId, Body, Query> {
  requestId: string;
  params: PathParams<RouteOf<Id>["path"]>;
  body: Body;
  query: Query;
  /** Fires when the caller gave up (gateway timeout or disconnect). */
  signal: AbortSignal | undefined;
}

/** What a handler receives once the shared HTTP rules passed: decoded, validated, charged. */
export interface OperationInput<Id extends OperationId, Body, Query, Resolved>
  extends ResolveInput<Id, Body, Query> {
  caller: CallerOf<RouteOf<Id>>;
  resolved: Resolved;
}

/** One route's contract on the hub: its operationId, its input schemas and its thin handler. */
export interface Operation<
  Id extends OperationId,
  Body = unknown,
  QuerySchema extends z.ZodObject = z.ZodObject,
  Resolved = undefined,
> {
  readonly operationId: Id;
  /** Form fields of the JSON body, in struct order (routes that read a body). */
  readonly body?: RequestBodySchema<Body>;
  /** Query fields, in struct order (routes whose query string reaches the hub). */
  readonly query?: QuerySchema;
  /**
   * Route-specific resolution (spec common rule 5, step 4): refusals that come after the form fields
   * and before the organization's bucket is charged, so they cost nothing. What it resolves reaches
   * the handler as `resolved`.
   */
  resolve?(input: ResolveInput<Id, Body, z.output<QuerySchema>>): Resolved | Promise<Resolved>;
  handle(input: OperationInput<Id, Body, z.output<QuerySchema>, Resolved>): unknown | Promise<unknown>;
}

interface DispatchedInput {
  requestId: string;
  params: Readonly<Record<string, string>>;
  body: unknown;
  query: Record<string, unknown>;
  signal: AbortSignal | undefined;
}

/** An operation as the dispatcher calls it, its input types erased to what any route receives. */
export interface DispatchedOperation {
  readonly body?: RequestBodySchema<unknown>;
  readonly query?: z.ZodObject;
  resolve?(input: DispatchedInput): unknown;
  handle(
    input: DispatchedInput & { caller: Caller | Pick<Caller, "organization"> | undefined; resolved: unknown },
  ): unknown;
}

/** An operation joined with its line of the route table. */
export interface RegisteredOperation {
  readonly route: RouteDefinition;
  readonly operation: DispatchedOperation;
}

/** Collects the hub's operations in registration order; the route list registers them in the spec's order. */
export interface OperationRouter {
  add<Id extends OperationId, Body, QuerySchema extends z.ZodObject, Resolved = undefined>(
    operation: Operation<Id, Body, QuerySchema, Resolved>,
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
      // The dispatcher builds each input from this route's line, which is what the operation's types read.
      const registered = { route, operation: operation as unknown as DispatchedOperation };
      operations.push(registered);
      byId.set(operation.operationId, registered);
    },
    find(operationId) {
      return byId.get(operationId);
    },
  };
}
