import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { FastifyInstance } from "fastify";
import type { Logger } from "pino";

/** The gateway: a Fastify instance, listened by the start command. */
export type GatewayApp = FastifyInstance<Server, IncomingMessage, ServerResponse, Logger>;
