import { performance } from "node:perf_hooks";
import {
  API_PREFIX,
  type HubAnswer,
  hubHeaders,
  matchRoute,
  newRequestId,
  type RouteMatch,
} from "@hub/contract";
import type { Logger } from "pino";
import type { OrganizationRateLimiter } from "../limits/organization-rate-limiter.js";
import type { SourceRateLimiter } from "../limits/source-rate-limiter.js";
import { errorAnswer, successAnswer } from "./answer.js";
import type { HubMetrics } from "./hub-metrics.js";
import { header, type InboundCall } from "./inbound-call.js";
import type { OperationRouter } from "./operation.js";
import { refusalAnswer } from "./refusal-answer.js";
import { serveOperation } from "./serve-operation.js";

export type { InboundCall } from "./inbound-call.js";

export interface Dispatcher {
  dispatch(call: InboundCall): Promise<HubAnswer>;
}

/** Request ids the hub adopts from the gateway: 1 to 128 visible ASCII characters. */
const REQUEST_ID_PATTERN = /^[\x21-\x7e]{1,128}$/;

/** The per-IP limiter's refusal text: the spec's "DDoS check" answer, with no request_id and no hint. */
const PER_IP_MESSAGE = "DDoS check: too many requests from this address.";

/** The route of the call's path under /v1, if any; the one the gateway matched when it handed it over. */
function matchOperation(call: InboundCall): RouteMatch | undefined {
  if (call.route !== undefined) return call.route;
  const mark = call.url.indexOf("?");
  const path = mark === -1 ? call.url : call.url.slice(0, mark);
  try {
    return path.startsWith(`${API_PREFIX}/`)
      ? matchRoute(call.method, path.slice(API_PREFIX.length))
      : undefined;
  } catch {
    return undefined; // a path parameter that is not valid percent-encoding names nothing
  }
}

/**
 * The HTTP rules every route shares (spec Endpoints, Common rules 1–8; Errors; Limits), in one order:
 * request id; the gateway's credential; the per-IP limiter; the route; body decode; form fields in
 * struct order; the subject; the organization's bucket; then the route's handler. Both transports call
 * this, so an answer is the same bytes however the call arrived.
 */
export function createDispatcher(deps: {
  router: OperationRouter;
  bodyLimitBytes: number;
  checkCredential: (presented: string | undefined) => boolean;
  sourceLimiter: SourceRateLimiter;
  organizationLimiter: OrganizationRateLimiter;
  metrics: HubMetrics;
  logger: Logger;
}): Dispatcher {
  const { router, checkCredential, sourceLimiter, metrics, logger } = deps;
  return {
    async dispatch(call) {
      const started = performance.now();
      const presentedId = header(call, hubHeaders.requestId);
      const requestId =
        presentedId !== undefined && REQUEST_ID_PATTERN.test(presentedId) ? presentedId : newRequestId();
      let operationId = "none";
      let answer: HubAnswer;
      let code: string;
      if (!checkCredential(header(call, hubHeaders.gatewayCredential))) {
        // Without the gateway's credential there is no API here at all: the same answer as no route.
        answer = errorAnswer("EPX0004", requestId);
        code = "EPX0004";
      } else if (!sourceLimiter.allow(header(call, hubHeaders.clientAddress) ?? call.peerAddress)) {
        answer = errorAnswer("EMC0005", requestId, { message: PER_IP_MESSAGE }, { bodyRequestId: false });
        code = "EMC0005";
      } else {
        const matched = matchOperation(call);
        const entry = matched && router.find(matched.route.operationId);
        if (!matched || !entry) {
          answer = errorAnswer("EPX0004", requestId);
          code = "EPX0004";
        } else {
          operationId = matched.route.operationId;
          try {
            answer = successAnswer(
              await serveOperation(deps, call, requestId, entry, matched.params),
              requestId,
            );
            code = "OK";
          } catch (error) {
            [answer, code] = refusalAnswer(logger, call, error, requestId, operationId);
          }
        }
      }
      const seconds = (performance.now() - started) / 1000;
      metrics.observe(operationId, code, seconds);
      if (logger.isLevelEnabled("debug")) {
        logger.debug({ request_id: requestId, operationId, code, ms: seconds * 1000 }, "answered");
      }
      return answer;
    },
  };
}
