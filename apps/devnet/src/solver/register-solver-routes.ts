import { setTimeout as delay } from "node:timers/promises";
import type { FastifyError, FastifyInstance } from "fastify";
import { faultGateHook } from "../faults/fault-gate-hook.js";
import type { FaultKnobs } from "../faults/fault-knobs.js";
import type { Solver } from "./solver.js";
import { SolverError } from "./solver-error.js";

export interface SolverRoutesOptions {
  /** Mount point, e.g. `/solvers/alpha`; the OIF solver paths (`/api/v1/...`) live below it. */
  prefix: string;
  solver: Solver;
  faults?: FaultKnobs;
}

/** The OIF solver HTTP API of one devnet solver: quotes, orders, order status and assets. */
export function registerSolverRoutes(app: FastifyInstance, options: SolverRoutesOptions): void {
  const { solver, faults } = options;
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

      scope.post("/api/v1/quotes", async (request) => {
        if (solver.quoteLatencyMs > 0) await delay(solver.quoteLatencyMs);
        return solver.quote(request.body);
      });

      scope.post("/api/v1/orders", async (request) => solver.submitOrder(request.body));

      scope.get<{ Params: { id: string } }>("/api/v1/orders/:id", async (request) =>
        solver.getOrder(request.params.id),
      );

      scope.get("/api/v1/assets", async () => solver.assets());
    },
    { prefix: options.prefix },
  );
}
