import Fastify, { type FastifyInstance, type FastifyReply } from "fastify";
import { isServing, type Readiness } from "../metrics/readiness.js";
import type { Dispatcher } from "./dispatcher.js";
import { answerUnparsableRequest, mountOnFastify, readGetBody, sendAnswer } from "./fastify-transport.js";
import type { OperationRouter } from "./operation.js";

export interface HubFastifyAppDeps {
  router: OperationRouter;
  dispatcher: Dispatcher;
  readiness: Readiness;
  bodyLimitBytes: number;
  bodyReadTimeoutMs: number;
}

const EMPTY = Buffer.alloc(0);

/** The hub's HTTP listener: /livez, /readyz and /healthz, and every operation mounted on the dispatcher. */
export function createHubFastifyApp(deps: HubFastifyAppDeps): FastifyInstance {
  const { dispatcher, readiness, bodyLimitBytes, bodyReadTimeoutMs } = deps;
  const app = Fastify({
    logger: false,
    exposeHeadRoutes: false,
    requestIdHeader: false,
    routerOptions: { maxParamLength: 2048 },
    clientErrorHandler: answerUnparsableRequest,
    // A URL Fastify cannot route (bad percent-encoding, an over-long id) still gets the dispatcher's
    // envelope, with a GET's body read as on every other route.
    frameworkErrors: (_error, request, reply) => {
      readGetBody(request, bodyLimitBytes, bodyReadTimeoutMs)
        .catch(() => EMPTY)
        .then((body) =>
          dispatcher.dispatch({
            method: request.method,
            url: request.url,
            headers: request.headers,
            body: body ?? EMPTY,
            peerAddress: request.socket.remoteAddress ?? "unknown",
            cancellation: undefined,
            route: undefined,
          }),
        )
        .then((answer) => sendAnswer(reply as unknown as FastifyReply, answer));
    },
  });
  app.get("/livez", async () => ({ status: "live" }));
  // /healthz stays an alias of /readyz (DESIGN §4).
  for (const path of ["/readyz", "/healthz"]) {
    app.get(path, async (_request, reply) => {
      const report = await readiness.report();
      return reply.code(isServing(report.status) ? 200 : 503).send(report);
    });
  }
  mountOnFastify(app, { router: deps.router, dispatcher, bodyLimitBytes, bodyReadTimeoutMs });
  return app;
}
