import type { FastifyError, FastifyInstance } from "fastify";
import type { ExternalAggregator } from "./create-external-aggregator.js";
import { ExternalAggregatorError } from "./external-aggregator-error.js";
import { externalQuoteRequestSchema } from "./external-quote.js";

export interface ExternalAggregatorRoutesOptions {
  prefix: string;
  externalAggregator: ExternalAggregator;
}

/** HTTP API of the external aggregator: quote, read a quote back, follow its transfer. */
export function registerExternalAggregatorRoutes(
  app: FastifyInstance,
  options: ExternalAggregatorRoutesOptions,
): void {
  const { externalAggregator } = options;
  app.register(
    async (scope) => {
      scope.setErrorHandler((error: FastifyError, _request, reply) => {
        if (error instanceof ExternalAggregatorError)
          return reply.code(error.statusCode).send({ error: error.code, message: error.message });
        if (error.statusCode !== undefined && error.statusCode < 500)
          return reply.code(error.statusCode).send({ error: "VALIDATION_ERROR", message: error.message });
        return reply.code(500).send({ error: "INTERNAL", message: "internal error" });
      });

      scope.post("/quote", async (request, reply) => {
        const parsed = externalQuoteRequestSchema.safeParse(request.body ?? {});
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          return reply.code(400).send({
            error: "VALIDATION_ERROR",
            message: `${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}`,
          });
        }
        return externalAggregator.quote(parsed.data);
      });
      scope.get<{ Params: { quoteId: string } }>("/quotes/:quoteId", async (request) =>
        externalAggregator.getQuote(request.params.quoteId),
      );
      scope.get<{ Params: { quoteId: string } }>("/quotes/:quoteId/status", async (request) =>
        externalAggregator.getStatus(request.params.quoteId),
      );
    },
    { prefix: options.prefix },
  );
}
