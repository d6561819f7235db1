import { setTimeout as delay } from "node:timers/promises";
import type { FastifyError, FastifyInstance } from "fastify";
import { specGetQuoteRequestSchema } from "../aggregator/oif-quote-request.js";
import { faultGateHook } from "../faults/fault-gate-hook.js";
import type { FaultKnobs } from "../faults/fault-knobs.js";
import {
  dialectPathPrefix,
  type OifDialect,
  specOrder,
  specOrderStatus,
  specRefusalStatus,
} from "../oif-dialect.js";
import type { Solver } from "./solver.js";
import { SolverError } from "./solver-error.js";

export interface SolverRoutesOptions {
  /** Mount point, e.g. `/solvers/alpha`; the OIF solver paths (`/api/v1/...` or `/v1/...`) live below it. */
  prefix: string;
  solver: Solver;
  faults?: FaultKnobs;
  /** The reference solver's words (`oif-aggregator`, the default) or the specification's (`oif-spec-1`). */
  dialect?: OifDialect;
}

/**
 * The OIF solver HTTP API of one devnet solver: quotes, orders, order status and assets. In the
 * specification's dialect every order payload is `eip712`, a failed order reads `failed`, a read
 * without a fill carries no `fillTransaction`, and a refused submission answers a PostOrderResponse
 * (`{status: "rejected" | "error", message}`) with the same HTTP status.
 */
export function registerSolverRoutes(app: FastifyInstance, options: SolverRoutesOptions): void {
  const { solver, faults } = options;
  const dialect = options.dialect ?? "oif-aggregator";
  const spec = dialect === "oif-spec-1";
  const api = dialectPathPrefix[dialect];
  app.register(
    async (scope) => {
      if (faults) {
        scope.addHook(
          "onRequest",
          faultGateHook(faults, () => faults.get(solver.id)),
        );
        scope.addHook("preClose", async () => faults.releaseAll());
      }
      scope.setErrorHandler((error: FastifyError, _request, reply) => {
        if (error instanceof SolverError)
          return reply.code(error.statusCode).send({ error: error.code, message: error.message });
        const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 500;
        return reply
          .code(status)
          .send({ error: status === 500 ? "INTERNAL_ERROR" : "INVALID_REQUEST", message: error.message });
      });

      scope.get("/health", async () => ({ status: "healthy", solverId: solver.id }));

      scope.post(`${api}/quotes`, async (request) => {
        if (solver.quoteLatencyMs > 0) await delay(solver.quoteLatencyMs);
        if (!spec) return solver.quote(request.body);
        // The specification does not refuse unknown fields: they are dropped before the solver reads the request.
        const parsed = specGetQuoteRequestSchema.safeParse(request.body);
        const answer = await solver.quote(parsed.success ? parsed.data : request.body);
        return { quotes: answer.quotes.map((quote) => ({ ...quote, order: specOrder(quote.order) })) };
      });

      scope.post(`${api}/orders`, async (request, reply) => {
        if (!spec) return solver.submitOrder(request.body);
        try {
          return await solver.submitOrder(request.body);
        } catch (error) {
          if (!(error instanceof SolverError)) throw error;
          return reply
            .code(error.statusCode)
            .send({ status: specRefusalStatus(error.statusCode), message: error.message });
        }
      });

      scope.get<{ Params: { id: string } }>(`${api}/orders/:id`, async (request) => {
        const order = solver.getOrder(request.params.id);
        if (!spec) return order;
        const { fillTransaction, ...rest } = order;
        return {
          ...rest,
          status: specOrderStatus(order.status),
          ...(fillTransaction === null ? {} : { fillTransaction }),
        };
      });

      scope.get(`${api}/assets`, async () => solver.assets());
    },
    { prefix: options.prefix },
  );
}
