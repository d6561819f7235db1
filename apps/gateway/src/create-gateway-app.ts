import { type Clock, systemClock } from "@hub/clock";
import { type HubTransport, newRequestId } from "@hub/contract";
import type { Counters } from "@hub/counters";
import Fastify, { type FastifyReply, type FastifyRequest, LogController } from "fastify";
import type { Logger } from "pino";
import { Registry } from "prom-client";
import { createApiCallHandler } from "./create-api-call-handler.js";
import type { CredentialResolver } from "./create-credential-resolver.js";
import type { UsageTally } from "./create-usage-tally.js";
import { answerClientError } from "./gateway-app/answer-client-error.js";
import { closeIdleConnectionsOnClose } from "./gateway-app/close-idle-connections.js";
import { createGatewayServer } from "./gateway-app/create-gateway-server.js";
import type { GatewayApp } from "./gateway-app/gateway-app.js";
import { isApiUrl } from "./gateway-app/is-api-url.js";
import { registerHealthRoutes } from "./gateway-app/register-health-routes.js";
import { registerRefusalHandlers } from "./gateway-app/register-refusal-handlers.js";
import { sendRefusal } from "./gateway-app/send-refusal.js";
import { type GatewayConfigInput, gatewayConfigSchema } from "./gateway-config.js";
import { createGatewayMetrics } from "./gateway-metrics.js";

export type { GatewayApp } from "./gateway-app/gateway-app.js";

/** What the gateway is built from; the caller owns (and closes) the resolver, counters and transport. */
export interface GatewayAppDeps {
  readonly config: GatewayConfigInput;
  readonly credentials: CredentialResolver;
  readonly counters: Counters;
  readonly transport: HubTransport;
  readonly logger: Logger;
  /** Registry the gateway's metrics go to, for the operator listener; a fresh one when absent. */
  readonly metrics?: Registry;
  readonly clock?: Clock;
  /** Counts each organization's calls for the usage page; the caller closes it after the gateway. */
  readonly usage?: UsageTally;
  /**
   * What /readyz (and its alias /healthz) answers: 200 when `status` is "ready", else 503, with only the
   * status as the body (this listener is public; the report's checks name internal hosts and errors, so
   * they stay on the operator listener). The stack passes the hub's checks; absent, the gateway is ready
   * once it listens.
   */
  readonly readiness?: () => Promise<{ status: "ready" | "degraded" | "not-ready" | "stopping" }>;
}

/**
 * The public gateway (DESIGN §1): credential, origin and CORS, route access, body limit, pools and
 * lockout, timeouts, hub headers; hub answers pass back unchanged. Every /v1 call is answered by the
 * gateway's own handler on Node's request and response, never by Fastify's body parsing, since the
 * body's bytes and Content-Type must reach the hub as sent. /healthz sits outside /v1; metrics
 * are served by the operator listener only, never here.
 */
export function createGatewayApp(deps: GatewayAppDeps): GatewayApp {
  const config = gatewayConfigSchema.parse(deps.config);
  const registry = deps.metrics ?? new Registry();
  const answerApiCall = createApiCallHandler({
    config,
    credentials: deps.credentials,
    counters: deps.counters,
    transport: deps.transport,
    metrics: createGatewayMetrics(registry),
    logger: deps.logger,
    clock: deps.clock ?? systemClock,
    usage: deps.usage,
  });
  const requestTimeoutMs =
    Math.max(config.quoteTimeoutMs, config.timeoutMs, config.bodyReadTimeoutMs) + 5_000;

  const app: GatewayApp = Fastify({
    loggerInstance: deps.logger,
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: "request_id" }),
    // No child logger per call: the gateway's own lines name the call with request_id themselves.
    childLoggerFactory: (logger) => logger,
    genReqId: () => newRequestId(),
    requestIdHeader: false,
    trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies : false,
    serverFactory: (fastifyHandler) =>
      createGatewayServer(fastifyHandler, answerApiCall, deps.logger, requestTimeoutMs),
    clientErrorHandler: answerClientError,
    frameworkErrors: (error, _request, reply) => {
      sendRefusal(reply, error.code === "FST_ERR_BAD_URL" ? "EPX0004" : "EPX0006");
    },
  });

  // The same handler for calls that enter through Fastify itself (app.inject); it answers on the raw
  // request and response, before Fastify would read or judge a body.
  app.addHook("onRequest", async (request: FastifyRequest, reply: FastifyReply) => {
    if (!isApiUrl(request.raw.url ?? "")) return;
    reply.hijack();
    await answerApiCall(request.raw, reply.raw, request.id);
  });
  registerHealthRoutes(app, deps.readiness ?? (async () => ({ status: "ready" as const })));
  closeIdleConnectionsOnClose(app);
  registerRefusalHandlers(app);
  return app;
}
