import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from "node:http";
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";
import { type Clock, systemClock } from "@hub/clock";
import {
  API_PREFIX,
  type ErrorCode,
  errorCatalogue,
  errorEnvelope,
  type HubTransport,
  newRequestId,
} from "@hub/contract";
import type { Counters } from "@hub/counters";
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from "fastify";
import type { Logger } from "pino";
import { Registry } from "prom-client";
import { createApiCallHandler } from "./create-api-call-handler.js";
import type { CredentialResolver } from "./create-credential-resolver.js";
import type { UsageTally } from "./create-usage-tally.js";
import { type GatewayConfigInput, gatewayConfigSchema } from "./gateway-config.js";
import { createGatewayMetrics } from "./gateway-metrics.js";

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
  readonly readiness?: () => Promise<{ status: "ready" | "not-ready" | "stopping" }>;
}

const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/** The gateway: a Fastify instance, listened by the start command. */
export type GatewayApp = FastifyInstance<Server, IncomingMessage, ServerResponse, Logger>;

function isApiUrl(url: string): boolean {
  return url.startsWith(`${API_PREFIX}/`) || url === API_PREFIX || url.startsWith(`${API_PREFIX}?`);
}

function sendRefusal(reply: FastifyReply, code: ErrorCode): void {
  reply
    .code(errorCatalogue[code].status)
    .header("x-request-id", reply.request.id)
    .header("content-type", JSON_CONTENT_TYPE)
    .header("cache-control", "no-store")
    .send(JSON.stringify(errorEnvelope(code, reply.request.id)));
}

/** An envelope written straight to a socket, then closed; a HEAD gets the head only. */
function endWithEnvelope(socket: Duplex, code: ErrorCode, head: boolean, message?: string): void {
  const requestId = newRequestId();
  const { status } = errorCatalogue[code];
  const body = JSON.stringify(errorEnvelope(code, requestId, message === undefined ? {} : { message }));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      `Content-Type: ${JSON_CONTENT_TYPE}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\n` +
      "Cache-Control: no-store\r\n" +
      "Connection: close\r\n\r\n" +
      (head ? "" : body),
  );
}

/** A request Node could not even parse (bad framing, oversized headers): the envelope, then close. */
function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable || (error.code === "ECONNRESET" && !socket.writable)) {
    socket.destroy();
    return;
  }
  const rawPacket = (error as { rawPacket?: Buffer }).rawPacket;
  const head = Buffer.isBuffer(rawPacket) && rawPacket.subarray(0, 5).toString("latin1") === "HEAD ";
  endWithEnvelope(socket, "EPX0006", head, "Request could not be read.");
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

  const app = Fastify({
    loggerInstance: deps.logger,
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: "request_id" }),
    // No child logger per call: the gateway's own lines name the call with request_id themselves.
    childLoggerFactory: (logger) => logger,
    genReqId: () => newRequestId(),
    requestIdHeader: false,
    trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies : false,
    // /v1 calls go from Node's server straight to the gateway's handler: Fastify's per-request work
    // (request and reply objects, routing, hooks, reply serialization) cost more than the gateway's own
    // checks and the hub together (docs/decisions/gateway.md, Throughput). Fastify serves the rest.
    serverFactory: (fastifyHandler) => {
      const server = createServer((request, response) => {
        if (!isApiUrl(request.url ?? "")) fastifyHandler(request, response);
        else {
          answerApiCall(request, response, newRequestId()).catch((error: unknown) => {
            deps.logger.error({ err: error }, "gateway handler failed after answering");
          });
        }
      });
      // CONNECT never reaches a request handler: without this Node drops the socket unanswered.
      server.on("connect", (_request: IncomingMessage, socket: Duplex) => {
        // Node hands the socket over unread and without an error listener: drain it (or it stays open
        // for good) and let a reset end it instead of the process.
        socket.on("error", () => socket.destroy());
        socket.resume();
        endWithEnvelope(socket, "EPX0004", false);
      });
      server.keepAliveTimeout = 72_000;
      // A backstop behind the gateway's own body and hub timeouts, which answer first with their codes.
      server.requestTimeout = requestTimeoutMs;
      return server;
    },
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

  const readiness = deps.readiness ?? (async () => ({ status: "ready" as const }));
  app.get("/livez", async (_request, reply) => {
    reply
      .header("content-type", JSON_CONTENT_TYPE)
      .header("cache-control", "no-store")
      .send('{"status":"live"}');
  });
  // /healthz stays an alias of /readyz (DESIGN §4).
  for (const path of ["/readyz", "/healthz"]) {
    app.get(path, async (_request, reply) => {
      const report = await readiness();
      reply
        .code(report.status === "ready" ? 200 : 503)
        .header("content-type", JSON_CONTENT_TYPE)
        .header("cache-control", "no-store")
        .send(JSON.stringify({ status: report.status }));
    });
  }

  // A close waits for the calls in flight; a keep-alive connection whose call ends after the close began
  // would then hold it until its client drops it (Fastify keeps connections 72 s), so each connection is
  // closed as soon as it is idle.
  let sweep: NodeJS.Timeout | undefined;
  app.addHook("preClose", (done) => {
    sweep = setInterval(() => app.server.closeIdleConnections(), 50).unref();
    done();
  });
  app.addHook("onClose", (_instance, done) => {
    clearInterval(sweep);
    done();
  });

  app.setNotFoundHandler((_request, reply) => sendRefusal(reply, "EPX0004"));

  app.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
    if (request.is404) return sendRefusal(reply, "EPX0004");
    if (error.statusCode === 413) return sendRefusal(reply, "EPX0005");
    if (error.statusCode !== undefined && error.statusCode < 500) return sendRefusal(reply, "EPX0006");
    request.log.error({ request_id: request.id, err: error }, "gateway route failed");
    return sendRefusal(reply, "EPX0053");
  });

  return app;
}
