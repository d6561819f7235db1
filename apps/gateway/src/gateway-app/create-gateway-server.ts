import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { newRequestId } from "@hub/contract";
import type { Logger } from "pino";
import type { ApiCallHandler } from "../create-api-call-handler.js";
import { endWithEnvelope } from "./end-with-envelope.js";
import { isApiUrl } from "./is-api-url.js";

/**
 * Node's server for the gateway: /v1 calls go straight to the gateway's handler, Fastify's per-request
 * work (request and reply objects, routing, hooks, reply serialization) cost more than the gateway's own
 * checks and the hub together (docs/decisions/gateway.md, Throughput). Fastify serves the rest.
 */
export function createGatewayServer(
  fastifyHandler: (request: IncomingMessage, response: ServerResponse) => void,
  answerApiCall: ApiCallHandler,
  logger: Logger,
  requestTimeoutMs: number,
): Server {
  const server = createServer((request, response) => {
    if (!isApiUrl(request.url ?? "")) fastifyHandler(request, response);
    else {
      answerApiCall(request, response, newRequestId()).catch((error: unknown) => {
        logger.error({ err: error }, "gateway handler failed after answering");
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
}
