import { performance } from "node:perf_hooks";
import {
  API_PREFIX,
  type Cancellation,
  decodeBody,
  decodeQuery,
  type HubAnswer,
  HubError,
  hubHeaders,
  isValidSubject,
  matchRoute,
  newRequestId,
} from "@hub/contract";
import { isStoreUnreachable } from "@hub/store";
import type { Logger } from "pino";
import type { OrganizationRateLimiter } from "../limits/organization-rate-limiter.js";
import type { SourceRateLimiter } from "../limits/source-rate-limiter.js";
import type { Caller } from "../services/caller.js";
import { errorAnswer, successAnswer } from "./answer.js";
import { checkGetBody, decodeJsonBody } from "./decode-body.js";
import type { HubMetrics } from "./hub-metrics.js";
import type { OperationRouter, RegisteredOperation } from "./operation.js";

/** One call as a transport hands it over: over HTTP (Fastify) or in process (the gateway's handle). */
export interface InboundCall {
  method: string;
  /** Path and query as sent, starting with /v1. */
  url: string;
  /** Lowercase header names. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The body as read; undefined when none was sent. */
  body: Buffer | undefined;
  /** Address of the connection's peer, or `in-process`. */
  peerAddress: string;
  /** When the caller gives up (the gateway's timeout, a client gone); its signal is made only if the work reads it. */
  cancellation: Cancellation | undefined;
}

export interface Dispatcher {
  dispatch(call: InboundCall): Promise<HubAnswer>;
}

/** Request ids the hub adopts from the gateway: 1 to 128 visible ASCII characters. */
const REQUEST_ID_PATTERN = /^[\x21-\x7e]{1,128}$/;

/** The per-IP limiter's refusal text: the spec's "DDoS check" answer, with no request_id and no hint. */
const PER_IP_MESSAGE = "DDoS check: too many requests from this address.";

const EMPTY = Buffer.alloc(0);

/**
 * What an operation receives. `signal` is read from the call's cancellation only when the operation
 * asks for it (the quote and submission routes), so a read makes no AbortSignal.
 */
class OperationCall {
  constructor(
    readonly requestId: string,
    readonly params: Record<string, string>,
    readonly body: unknown,
    readonly query: Record<string, unknown>,
    private readonly cancellation: Cancellation | undefined,
    readonly caller: Caller | Pick<Caller, "organization"> | undefined,
    readonly resolved: unknown,
  ) {}

  get signal(): AbortSignal | undefined {
    return this.cancellation?.signal;
  }
}

function header(call: InboundCall, name: string): string | undefined {
  const value = call.headers[name];
  return typeof value === "string" ? value : undefined;
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
  const { router, bodyLimitBytes, checkCredential, sourceLimiter, organizationLimiter, metrics, logger } =
    deps;
  async function serve(
    call: InboundCall,
    requestId: string,
    entry: RegisteredOperation,
    params: Record<string, string>,
  ) {
    const { route, operation } = entry;
    const body = call.body !== undefined && call.body.length > bodyLimitBytes ? EMPTY : call.body;
    const contentType = header(call, hubHeaders.contentType);

    let bodyValue: unknown;
    if (route.readsBody) {
      const json = decodeJsonBody(contentType, body);
      bodyValue = operation.body ? decodeBody(operation.body, json) : json;
    } else {
      checkGetBody(contentType, body);
    }

    let queryValue: Record<string, unknown> = {};
    if (route.forwardsQuery && operation.query) {
      const mark = call.url.indexOf("?");
      queryValue = decodeQuery(
        operation.query,
        new URLSearchParams(mark === -1 ? "" : call.url.slice(mark + 1)),
      );
    }

    let subject: string | undefined;
    if (route.subjectRequired) {
      subject = header(call, hubHeaders.subject);
      if (subject === undefined || !isValidSubject(subject)) {
        throw new HubError("EIN0001", {
          reference: "x-service-subject",
          message: "X-Service-Subject is missing or not 1 to 128 of letters, digits and ._@+~-",
        });
      }
    }

    const resolved = operation.resolve
      ? await operation.resolve(
          new OperationCall(
            requestId,
            params,
            bodyValue,
            queryValue,
            call.cancellation,
            undefined,
            undefined,
          ),
        )
      : undefined;

    const organization = header(call, hubHeaders.organization);
    if (route.bucket) {
      if (!organization) throw new Error("the gateway sent no X-Service-Org on a charged route");
      await organizationLimiter.charge(route.bucket, organization);
    }
    // An uncharged route called without X-Service-Org reads as an organization that owns nothing.
    const caller =
      route.access === "public"
        ? undefined
        : subject === undefined
          ? { organization: organization ?? "" }
          : { organization: organization ?? "", subject };

    if (call.cancellation?.aborted) throw call.cancellation.signal.reason;
    return operation.handle(
      new OperationCall(requestId, params, bodyValue, queryValue, call.cancellation, caller, resolved),
    );
  }

  function refusal(
    call: InboundCall,
    error: unknown,
    requestId: string,
    operationId: string,
  ): [HubAnswer, string] {
    if (error instanceof HubError) return [errorAnswer(error.code, requestId, error.detail), error.code];
    if (call.cancellation?.aborted) {
      // The caller is gone (gateway timeout); nobody reads this answer, and it is no fault of the hub.
      return [errorAnswer("EIN0049", requestId, { message: "Internal error." }), "ABORTED"];
    }
    if (isStoreUnreachable(error)) {
      // PostgreSQL stopped or restarting: an availability answer the caller retries, one log line.
      const reason = error instanceof Error ? error.message : String(error);
      logger.warn({ request_id: requestId, operationId, reason }, "the database cannot be reached: EIN0050");
      return [errorAnswer("EIN0050", requestId), "EIN0050"];
    }
    logger.error({ err: error, request_id: requestId, operationId }, "unexpected failure answered EIN0049");
    return [errorAnswer("EIN0049", requestId, { message: "Internal error." }), "EIN0049"];
  }

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
        const mark = call.url.indexOf("?");
        const path = mark === -1 ? call.url : call.url.slice(0, mark);
        let matched: ReturnType<typeof matchRoute>;
        try {
          matched = path.startsWith(`${API_PREFIX}/`)
            ? matchRoute(call.method, path.slice(API_PREFIX.length))
            : undefined;
        } catch {
          matched = undefined; // a path parameter that is not valid percent-encoding names nothing
        }
        const entry = matched && router.find(matched.route.operationId);
        if (!matched || !entry) {
          answer = errorAnswer("EPX0004", requestId);
          code = "EPX0004";
        } else {
          operationId = matched.route.operationId;
          try {
            answer = successAnswer(await serve(call, requestId, entry, matched.params), requestId);
            code = "OK";
          } catch (error) {
            [answer, code] = refusal(call, error, requestId, operationId);
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
