import type { Clock } from "@hub/clock";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { faultGateHook } from "../faults/fault-gate-hook.js";
import type { FaultKnobs } from "../faults/fault-knobs.js";
import { dialectPathPrefix, type OifDialect } from "../oif-dialect.js";
import type { Aggregator } from "./aggregator.js";
import { AggregatorError } from "./aggregator-error.js";
import { postOrderRequestSchema } from "./oif-order.js";
import { aggregatorQuoteRequestSchema, specQuoteRequestSchema } from "./oif-quote-request.js";
import { createSpecFace, type SpecFace, specPostOrderRequestSchema } from "./spec-face.js";

export interface AggregatorRoutesOptions {
  /** Mount point, e.g. `/aggregator`; the OIF paths (`/api/v1/...` or `/v1/...`, `/health`) live below it. */
  prefix: string;
  aggregator: Aggregator;
  /**
   * The reference aggregator's API (`oif-aggregator`, the default: `/api/v1`, strict bodies, its
   * OrderResponse) or the specification's (`oif-spec-1`: `/v1`, GetQuoteResponse, PostOrderResponse,
   * GetOrderResponse; see spec-face.ts).
   */
  dialect?: OifDialect;
  /** Aggregator-level down, hang and latency knobs. */
  faults?: FaultKnobs;
  clock: Clock;
}

// Axum's Json extractor answers shape errors (unknown field, missing field, wrong type) with a
// plain-text 422; the reference aggregator relies on it, so the devnet does the same.
function rejectBody(reply: FastifyReply, error: z.ZodError) {
  const issue = error.issues[0];
  const where = issue?.path.length ? issue.path.join(".") : "body";
  return reply
    .code(422)
    .type("text/plain; charset=utf-8")
    .send(
      `Failed to deserialize the JSON body into the target type: ${where}: ${issue?.message ?? "invalid"}`,
    );
}

const paging = z.object({
  page: z.coerce.number().int().min(1).optional(),
  page_size: z.coerce.number().int().min(1).max(100).optional(),
});

/** The public OIF aggregator HTTP API: quotes, orders, order status, solvers and health. */
export function registerAggregatorRoutes(app: FastifyInstance, options: AggregatorRoutesOptions): void {
  const { aggregator, faults, clock } = options;
  const dialect = options.dialect ?? "oif-aggregator";
  const api = dialectPathPrefix[dialect];
  const spec = dialect === "oif-spec-1" ? createSpecFace(aggregator, clock) : undefined;
  app.register(
    async (scope) => {
      if (faults) {
        scope.addHook(
          "onRequest",
          faultGateHook(faults, () => faults.getAggregator()),
        );
        scope.addHook("preClose", async () => faults.releaseAll());
      }
      scope.setErrorHandler(aggregatorErrorHandler(clock));
      scope.get("/health", async () => aggregator.health());
      if (spec) registerSpecOrderRoutes(scope, api, spec);
      else registerReferenceOrderRoutes(scope, api, aggregator);
      registerSolverListRoutes(scope, api, aggregator);
    },
    { prefix: options.prefix },
  );
}

/** The reference aggregator's answers to errors: its envelope, or the plain-text refusals of its framework. */
function aggregatorErrorHandler(clock: Clock) {
  return (error: FastifyError, _request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AggregatorError)
      return reply.code(error.statusCode).headers(error.headers).send(error.envelope(clock.now()));
    if (error.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE")
      return reply
        .code(415)
        .type("text/plain; charset=utf-8")
        .send("Expected request with `Content-Type: application/json`");
    if (error.statusCode === 400 || error.code === "FST_ERR_CTP_EMPTY_JSON_BODY")
      return reply
        .code(400)
        .type("text/plain; charset=utf-8")
        .send(`Failed to parse the request body as JSON: ${error.message}`);
    if (error.statusCode === 413)
      return reply.code(413).type("text/plain; charset=utf-8").send("Payload Too Large");
    return reply
      .code(500)
      .send(new AggregatorError(500, "INTERNAL_ERROR", error.message).envelope(clock.now()));
  };
}

function registerSpecOrderRoutes(scope: FastifyInstance, api: string, spec: SpecFace): void {
  scope.post(`${api}/quotes`, async (request, reply) => {
    const parsed = specQuoteRequestSchema.safeParse(request.body);
    if (!parsed.success) return rejectBody(reply, parsed.error);
    return spec.quotes(parsed.data);
  });

  scope.post(`${api}/orders`, async (request, reply) => {
    const parsed = specPostOrderRequestSchema.safeParse(request.body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return reply
        .code(400)
        .send({ status: "rejected", message: `${issue?.path.join(".")}: ${issue?.message}` });
    }
    const answer = await spec.submit(parsed.data);
    return reply.code(answer.statusCode).headers(answer.headers).send(answer.body);
  });

  scope.get<{ Params: { id: string } }>(`${api}/orders/:id`, async (request) =>
    spec.order(request.params.id),
  );
}

function registerReferenceOrderRoutes(scope: FastifyInstance, api: string, aggregator: Aggregator): void {
  scope.post(`${api}/quotes`, async (request, reply) => {
    const parsed = aggregatorQuoteRequestSchema.safeParse(request.body);
    if (!parsed.success) return rejectBody(reply, parsed.error);
    return aggregator.getQuotes(parsed.data);
  });

  scope.post(`${api}/orders`, async (request, reply) => {
    const parsed = postOrderRequestSchema.safeParse(request.body);
    if (!parsed.success) return rejectBody(reply, parsed.error);
    return aggregator.submitOrder(parsed.data);
  });

  scope.get<{ Params: { id: string } }>(`${api}/orders/:id`, async (request) =>
    aggregator.getOrder(request.params.id),
  );
}

function registerSolverListRoutes(scope: FastifyInstance, api: string, aggregator: Aggregator): void {
  scope.get(`${api}/solvers`, async (request) => {
    const query = paging.safeParse(request.query);
    if (!query.success) throw new AggregatorError(400, "VALIDATION_ERROR", query.error.message);
    return aggregator.listSolvers(query.data.page, query.data.page_size);
  });

  scope.get<{ Params: { id: string } }>(`${api}/solvers/:id`, async (request) =>
    aggregator.getSolver(request.params.id),
  );
}
