import type { Socket } from "node:net";
import type { Readable } from "node:stream";
import {
  type Cancellation,
  cancellationOf,
  errorEnvelope,
  type HubAnswer,
  newRequestId,
} from "@hub/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Dispatcher } from "./dispatcher.js";
import type { OperationRouter } from "./operation.js";

const EMPTY = Buffer.alloc(0);

/** A body that had not ended within the hub's body read timeout. */
export class BodyReadTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`the request body did not arrive within ${timeoutMs} ms`);
  }
}

/**
 * Reads a body up to the limit; a bigger one is drained and reads as empty (spec common rule 8).
 * A body that has not ended within `timeoutMs` is given up (BodyReadTimeoutError).
 */
export function readBody(stream: Readable, limitBytes: number, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    let over = false;
    const timer = setTimeout(() => reject(new BodyReadTimeoutError(timeoutMs)), timeoutMs);
    stream.on("data", (chunk: Buffer) => {
      if (over) return;
      length += chunk.length;
      if (length > limitBytes) {
        over = true;
        chunks.length = 0;
        return;
      }
      chunks.push(chunk);
    });
    stream.once("end", () => {
      clearTimeout(timer);
      resolve(over ? EMPTY : Buffer.concat(chunks, length));
    });
    stream.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

/**
 * A request Node cannot even parse (malformed HTTP, headers too large) still gets the envelope:
 * EMC0005 with a fresh request id, since none could be read; then the connection closes.
 */
export function answerUnparsableRequest(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  if (socket.writable) {
    const requestId = newRequestId();
    const body = JSON.stringify(
      errorEnvelope("EMC0005", requestId, { message: "The request could not be read as HTTP." }),
    );
    socket.write(
      `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nX-Request-Id: ${requestId}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/** Writes a dispatcher answer as is: status, headers, bytes. */
export function sendAnswer(reply: FastifyReply, answer: HubAnswer): FastifyReply {
  return reply.code(answer.statusCode).headers(answer.headers).send(answer.body);
}

function hasBody(request: FastifyRequest): boolean {
  const { headers } = request;
  return headers["transfer-encoding"] !== undefined || (headers["content-length"] ?? "0") !== "0";
}

/** Fastify leaves a GET's body unread; the rules still look at it (EMC0005 for a JSON one). */
export async function readGetBody(
  request: FastifyRequest,
  limitBytes: number,
  timeoutMs: number,
): Promise<Buffer | undefined> {
  if (request.method !== "GET" || !hasBody(request)) return undefined;
  return readBody(request.raw, limitBytes, timeoutMs);
}

/**
 * Puts the hub's routes on Fastify in the route list's order. Fastify only carries bytes here: every
 * rule (content types, JSON, limits, envelopes) is the dispatcher's, shared with the in-process path,
 * so Fastify's own parsers are removed and its framework errors are answered through the dispatcher.
 */
export function mountOnFastify(
  app: FastifyInstance,
  deps: {
    router: OperationRouter;
    dispatcher: Dispatcher;
    bodyLimitBytes: number;
    bodyReadTimeoutMs: number;
  },
): void {
  const { router, dispatcher, bodyLimitBytes, bodyReadTimeoutMs } = deps;

  async function serve(request: FastifyRequest, reply: FastifyReply, body: Buffer | undefined) {
    let cancellation: Cancellation | undefined;
    if (request.method === "POST") {
      const controller = new AbortController();
      reply.raw.once("close", () => {
        if (!reply.raw.writableFinished) controller.abort();
      });
      cancellation = cancellationOf(controller.signal);
    }
    const answer = await dispatcher.dispatch({
      method: request.method,
      url: request.url,
      headers: request.headers,
      body,
      peerAddress: request.socket.remoteAddress ?? "unknown",
      cancellation,
      route: undefined,
    });
    return sendAnswer(reply, answer);
  }

  async function handler(request: FastifyRequest, reply: FastifyReply) {
    const body =
      (request.body as Buffer | undefined) ?? (await readGetBody(request, bodyLimitBytes, bodyReadTimeoutMs));
    return serve(request, reply, body);
  }

  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", (_request, payload, done) => {
    readBody(payload, bodyLimitBytes, bodyReadTimeoutMs).then(
      (body) => done(null, body),
      (error: Error) => done(error, undefined),
    );
  });

  for (const { route } of router.operations) {
    app.route({
      method: route.method,
      url: `/v1${route.path.replace(/\{([A-Za-z]+)\}/g, ":$1")}`,
      handler,
    });
  }
  app.setNotFoundHandler(handler);
  // A body Fastify could not take in (a malformed media type, a broken transfer, one too slow) reads as
  // empty; the rest of a slow body is never read, so the connection cannot carry another request.
  app.setErrorHandler((error, request, reply) => {
    if (error instanceof BodyReadTimeoutError) reply.header("connection", "close");
    return serve(request, reply, EMPTY);
  });
}
