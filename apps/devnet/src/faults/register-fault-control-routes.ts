import type { FastifyInstance, FastifyReply } from "fastify";
import { aggregatorFaultKnobsSchema, type FaultKnobs, solverFaultKnobsSchema } from "./fault-knobs.js";

export interface FaultControlRoutesOptions {
  /** Where the control routes live; `/control` by default. */
  prefix?: string;
  faults: FaultKnobs;
  /** The chains' RPC fault knobs, read and cleared with the others. */
  rpc?: { all(): Record<string, unknown>; clear(): void };
}

function refuse(reply: FastifyReply, status: number, error: string, message: string) {
  return reply.code(status).send({ error, message });
}

/** Control routes of the fault knobs: set, read and reset per solver, and the aggregator's own knobs. */
export function registerFaultControlRoutes(app: FastifyInstance, options: FaultControlRoutesOptions): void {
  const { faults } = options;
  app.register(
    async (scope) => {
      scope.get("/faults", async () => ({
        solvers: Object.fromEntries(faults.solverIds.map((id) => [id, faults.get(id)])),
        aggregator: faults.getAggregator(),
        ...(options.rpc ? { rpc: options.rpc.all() } : {}),
      }));
      scope.delete("/faults", async () => {
        faults.reset();
        options.rpc?.clear();
        return { solvers: {}, aggregator: {}, ...(options.rpc ? { rpc: {} } : {}) };
      });

      scope.get<{ Params: { solverId: string } }>("/solvers/:solverId/faults", async (request, reply) => {
        const { solverId } = request.params;
        if (!faults.solverIds.includes(solverId)) return refuse(reply, 404, "SOLVER_NOT_FOUND", solverId);
        return { solverId, knobs: faults.get(solverId) };
      });
      scope.post<{ Params: { solverId: string } }>("/solvers/:solverId/faults", async (request, reply) => {
        const { solverId } = request.params;
        if (!faults.solverIds.includes(solverId)) return refuse(reply, 404, "SOLVER_NOT_FOUND", solverId);
        const parsed = solverFaultKnobsSchema.safeParse(request.body ?? {});
        if (!parsed.success) return refuse(reply, 400, "VALIDATION_ERROR", parsed.error.message);
        return { solverId, knobs: faults.set(solverId, parsed.data) };
      });
      scope.delete<{ Params: { solverId: string } }>("/solvers/:solverId/faults", async (request, reply) => {
        const { solverId } = request.params;
        if (!faults.solverIds.includes(solverId)) return refuse(reply, 404, "SOLVER_NOT_FOUND", solverId);
        faults.reset(solverId);
        return { solverId, knobs: {} };
      });

      scope.get("/aggregator/faults", async () => ({ knobs: faults.getAggregator() }));
      scope.post("/aggregator/faults", async (request, reply) => {
        const parsed = aggregatorFaultKnobsSchema.safeParse(request.body ?? {});
        if (!parsed.success) return refuse(reply, 400, "VALIDATION_ERROR", parsed.error.message);
        return { knobs: faults.setAggregator(parsed.data) };
      });
      scope.delete("/aggregator/faults", async () => {
        faults.resetAggregator();
        return { knobs: {} };
      });
    },
    { prefix: options.prefix ?? "/control" },
  );
}
