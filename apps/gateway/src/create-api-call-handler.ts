import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import { performance } from "node:perf_hooks";
import type { Clock } from "@hub/clock";
import {
  API_PREFIX,
  type Cancellation,
  type ErrorCode,
  errorCatalogue,
  errorEnvelope,
  type HubAnswer,
  type HubTransport,
  hubHeaders,
  matchRoute,
  pathExists,
  type RouteDefinition,
} from "@hub/contract";
import type { BucketRule, Counters, TakeResult } from "@hub/counters";
import type { Logger } from "pino";
import { addressKey } from "./address-key.js";
import { clientAddress, createProxyTrust } from "./client-address.js";
import { corsHeaders, preflightHeaders } from "./cors-headers.js";
import type { CredentialResolver } from "./create-credential-resolver.js";
import { createDeadlines, TIMED_OUT } from "./create-deadlines.js";
import type { UsageCredentialKind, UsageTally } from "./create-usage-tally.js";
import type { GatewayConfig } from "./gateway-config.js";
import { projectPoolRule } from "./project-pool-rule.js";
import type { GatewayMetrics } from "./gateway-metrics.js";
import { HubTransportError } from "./hub-transport-error.js";
import { isEnvelopeAnswer } from "./is-envelope-answer.js";
import { parseCredential } from "./parse-credential.js";
import { framesBody, NO_BODY, readBody } from "./read-body.js";

const JSON_CONTENT_TYPE = "application/json; charset=utf-8";
/** Hop-by-hop and framing headers of a hub answer; the gateway's own server sets its own. */
const DROPPED_HUB_HEADERS = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-length",
  "date",
  "upgrade",
  "trailer",
  "te",
  "proxy-connection",
]);

/** How many lockout keys and organizations' pool lists are kept at most. */
const KEPT_COUNTER_KEYS = 10_000;

interface Pool {
  readonly key: string;
  readonly rule: BucketRule;
  readonly code: "EPX0080" | "EPX0082";
}

interface CallContext {
  readonly requestId: string;
  readonly ip: string;
  status: number;
  operation: string;
  /** Headers every answer to this call carries: CORS on project-id calls, RateLimit once a credential is accepted. */
  readonly headers: Record<string, string>;
  reachedHub: boolean;
  /** Set once the organization is known; the call then counts in its usage. */
  orgId: string | undefined;
  credentialKind: UsageCredentialKind;
  /** The answer's error code, '' for a success: the usage counters' code. */
  answerCode: string;
}

export interface ApiCallHandlerDeps {
  readonly config: GatewayConfig;
  readonly credentials: CredentialResolver;
  readonly counters: Counters;
  readonly transport: HubTransport;
  readonly metrics: GatewayMetrics;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly usage: UsageTally | undefined;
}

/** Answers one /v1 call on Node's own request and response; the request id is the gateway's. */
export type ApiCallHandler = (
  request: IncomingMessage,
  response: ServerResponse,
  requestId: string,
) => Promise<void>;

/** The first error code of a hub envelope; "unknown" when the body names none. */
function envelopeErrorCode(body: Buffer): string {
  try {
    const code = (JSON.parse(body.toString("utf8")) as { errors?: { error_code?: unknown }[] }).errors?.[0]
      ?.error_code;
    return typeof code === "string" && code in errorCatalogue ? code : "unknown";
  } catch {
    return "unknown";
  }
}

/**
 * Answers one /v1 call, in the spec's order (Common rule 5 and Authentication): lockout, route,
 * credential, origin, route open to the credential, body size, rate pools; then the hub. Every refusal
 * is the envelope with the catalogue's status; hub answers pass back unchanged.
 */
export function createApiCallHandler(deps: ApiCallHandlerDeps): ApiCallHandler {
  const { config, credentials, counters, transport, metrics, logger, clock, usage } = deps;
  const deadlines = createDeadlines();
  const projectPool =
    config.projectPool ?? projectPoolRule(config.hubOrganizationBucket, config.projectShare);
  const trust = config.trustedProxies.length > 0 ? createProxyTrust(config.trustedProxies) : undefined;

  function send(
    response: ServerResponse,
    call: CallContext,
    status: number,
    headers: OutgoingHttpHeaders,
    body?: Buffer,
  ): void {
    call.status = status;
    headers["cache-control"] = "no-store";
    if (body !== undefined) headers["content-length"] = body.length;
    response.writeHead(status, headers);
    response.end(body);
  }

  function refuse(
    response: ServerResponse,
    call: CallContext,
    code: ErrorCode,
    extra: { params?: string[]; retryAfterMs?: number; message?: string } = {},
  ): string {
    const envelope = errorEnvelope(code, call.requestId, { params: extra.params, message: extra.message });
    const headers: OutgoingHttpHeaders = {
      ...call.headers,
      "x-request-id": call.requestId,
      "content-type": JSON_CONTENT_TYPE,
    };
    if (extra.retryAfterMs !== undefined) {
      headers["retry-after"] = String(Math.max(1, Math.ceil(extra.retryAfterMs / 1000)));
    }
    call.answerCode = code;
    send(response, call, errorCatalogue[code].status, headers, Buffer.from(JSON.stringify(envelope)));
    return code;
  }

  // Counter keys made once per address and per organization, not per call: the key strings (and the
  // pool list of a key's organization) are the same on every call, and a kept string keeps its hash for
  // the counters' map. Each map is emptied whenever it reaches its cap.
  const lockoutKeys = new Map<string, string>();
  const organizationPools = new Map<string, readonly Pool[]>();

  function lockoutKey(ip: string): string {
    let key = lockoutKeys.get(ip);
    if (key === undefined) {
      if (lockoutKeys.size >= KEPT_COUNTER_KEYS) lockoutKeys.clear();
      key = `gw:lockout:${addressKey(ip)}`;
      lockoutKeys.set(ip, key);
    }
    return key;
  }

  function poolsOfOrganization(orgId: string): readonly Pool[] {
    let pools = organizationPools.get(orgId);
    if (pools === undefined) {
      if (organizationPools.size >= KEPT_COUNTER_KEYS) organizationPools.clear();
      pools = [{ key: `gw:org:${orgId}`, rule: config.organizationPool, code: "EPX0080" }];
      organizationPools.set(orgId, pools);
    }
    return pools;
  }

  async function countFailure(ip: string): Promise<void> {
    await counters.hitSliding(lockoutKey(ip), config.lockoutWindowMs, config.lockoutFailures);
  }

  /** Takes from each pool in turn, stopping at the first that refuses; the tightest answer sets the headers. */
  async function takeFromPools(
    call: CallContext,
    pools: readonly Pool[],
    cost: number,
  ): Promise<{ refusedBy?: Pool; result: TakeResult }> {
    let tightest: TakeResult | undefined;
    for (const pool of pools) {
      const result = await counters.take(pool.key, pool.rule, cost);
      if (
        !tightest ||
        !result.allowed ||
        result.remaining < tightest.remaining ||
        (result.remaining === tightest.remaining && result.limit < tightest.limit)
      ) {
        tightest = result;
      }
      if (!result.allowed) {
        setRateHeaders(call, result);
        return { refusedBy: pool, result };
      }
    }
    setRateHeaders(call, tightest!);
    return { result: tightest! };
  }

  function setRateHeaders(call: CallContext, result: TakeResult): void {
    call.headers["ratelimit-limit"] = String(result.limit);
    call.headers["ratelimit-remaining"] = String(result.remaining);
    call.headers["ratelimit-reset"] = String(result.resetSeconds);
  }

  async function forward(
    request: IncomingMessage,
    response: ServerResponse,
    call: CallContext,
    route: RouteDefinition,
    target: { url: string; orgId: string | undefined; body: Buffer | undefined },
  ): Promise<string> {
    const headers: Record<string, string> = {
      [hubHeaders.requestId]: call.requestId,
      [hubHeaders.userAgent]: config.userAgent,
      [hubHeaders.acceptLanguage]: "en",
      [hubHeaders.gatewayCredential]: config.hubCredential,
      // The hub's per-IP limiter keys on the caller's address as the gateway saw it.
      [hubHeaders.clientAddress]: call.ip,
    };
    if (target.orgId !== undefined) headers[hubHeaders.organization] = target.orgId;
    const subject = request.headers[hubHeaders.subject];
    if (typeof subject === "string") headers[hubHeaders.subject] = subject;
    const contentType = request.headers[hubHeaders.contentType];
    if (contentType !== undefined) headers[hubHeaders.contentType] = contentType;

    // Only the gateway's own timeout ends the hub call: a client that disconnects does not cancel a
    // submission. The deadline is both aborted (the hub cancels) and ends the wait, so a hub or a
    // transport that ignores it still answers EPX0052 on time.
    const timeoutMs = route.timeoutClass === "quote" ? config.quoteTimeoutMs : config.timeoutMs;
    call.reachedHub = true;
    let deadline: Cancellation | undefined;
    let answer: HubAnswer;
    try {
      const first = await deadlines.race(timeoutMs, (callDeadline) => {
        deadline = callDeadline;
        return transport.send({
          method: request.method ?? "GET",
          url: target.url,
          headers,
          body: target.body,
          deadline: callDeadline,
        });
      });
      if (first === TIMED_OUT) throw new HubTransportError("timeout", "the gateway's timeout fired");
      answer = first;
    } catch (error) {
      const kind = deadline?.aborted
        ? "timeout"
        : error instanceof HubTransportError
          ? error.kind
          : "failing";
      logger.warn(
        { request_id: call.requestId, err: error, operation: call.operation, kind },
        "hub call failed",
      );
      return refuse(
        response,
        call,
        kind === "timeout" ? "EPX0052" : kind === "unreachable" ? "EPX0050" : "EPX0051",
      );
    }
    if (!isEnvelopeAnswer(answer, route)) {
      logger.warn(
        { request_id: call.requestId, operation: call.operation, status: answer.statusCode },
        "hub answered without the envelope",
      );
      return refuse(response, call, "EPX0051");
    }
    const answerHeaders: OutgoingHttpHeaders = {};
    for (const name in answer.headers) {
      if (!DROPPED_HUB_HEADERS.has(name) && !name.startsWith("access-control-"))
        answerHeaders[name] = answer.headers[name];
    }
    if (answer.headers[hubHeaders.requestId] === undefined) answerHeaders["x-request-id"] = call.requestId;
    Object.assign(answerHeaders, call.headers);
    if (answer.statusCode >= 300 && usage !== undefined) call.answerCode = envelopeErrorCode(answer.body);
    send(response, call, answer.statusCode, answerHeaders, answer.body);
    return answer.statusCode === 200 ? "OK" : "hub";
  }

  async function serve(
    request: IncomingMessage,
    response: ServerResponse,
    call: CallContext,
  ): Promise<string> {
    const url = request.url ?? "/";
    const mark = url.indexOf("?");
    const path = mark === -1 ? url : url.slice(0, mark);
    const apiPath = path.slice(API_PREFIX.length);
    const headers = request.headers;
    const origin = typeof headers.origin === "string" ? headers.origin : undefined;
    if (headers["x-project-id"] !== undefined && headers["x-api-key"] === undefined) {
      Object.assign(call.headers, corsHeaders(origin));
    }

    if (request.method === "OPTIONS" && headers["access-control-request-method"] !== undefined) {
      call.operation = "preflight";
      if (!pathExists(apiPath)) return refuse(response, call, "EPX0004");
      const headers = {
        ...preflightHeaders(origin, config.preflightMaxAgeSeconds),
        "x-request-id": call.requestId,
      };
      send(response, call, 204, headers);
      return "preflight";
    }

    const ip = call.ip;
    // A sliding minute: locked while the last 60 s hold 20 failures (docs/decisions/gateway.md, Lockout).
    const lockout = await counters.peekSliding(
      lockoutKey(ip),
      config.lockoutWindowMs,
      config.lockoutFailures,
    );
    if (lockout.count >= config.lockoutFailures) {
      if (usage !== undefined) await identifyLockedOut(call, headers);
      return refuse(response, call, "EPX0081", { retryAfterMs: lockout.belowLimitAtMs - clock.now() });
    }

    let matched: ReturnType<typeof matchRoute>;
    try {
      matched = matchRoute(request.method ?? "", apiPath);
    } catch {
      matched = undefined; // a path parameter that is not valid percent-encoding names no route
    }
    if (!matched) return refuse(response, call, "EPX0004");
    const { route } = matched;
    call.operation = route.operationId;

    let orgId: string | undefined;
    let pools: readonly Pool[] = [];
    if (route.access !== "public") {
      const parsed = parseCredential(headers);
      if (!parsed.ok) {
        if (parsed.counts) await countFailure(ip);
        return refuse(response, call, parsed.code);
      }
      if (parsed.kind === "key") {
        const check = await credentials.checkKey(parsed.key);
        if (!check.ok) {
          if (check.counts) await countFailure(ip);
          return refuse(response, call, check.code);
        }
        orgId = check.orgId;
        call.orgId = orgId;
        call.credentialKind = "api_key";
        pools = poolsOfOrganization(orgId);
      } else {
        const check = await credentials.checkProject(parsed.projectId);
        if (!check.ok) {
          await countFailure(ip);
          return refuse(response, call, check.code);
        }
        call.orgId = check.orgId;
        call.credentialKind = "project_id";
        if (origin !== undefined && !check.allowedOrigins.has(origin))
          return refuse(response, call, "EPX0010");
        orgId = check.orgId;
        pools = [
          {
            key: `gw:visitor:${check.projectId}:${addressKey(ip)}`,
            rule: config.visitorBucket,
            code: "EPX0082",
          },
          { key: `gw:project:${check.projectId}`, rule: projectPool, code: "EPX0080" },
        ];
        if (route.access === "key-only") {
          await takeFromPools(call, pools, 0);
          return refuse(response, call, "EPX0003");
        }
      }
    }

    // Most calls (GETs) frame no body: no read, and no await, for them.
    const read = framesBody(request)
      ? await readBody(request, config.bodyLimitBytes, config.bodyReadTimeoutMs)
      : NO_BODY;
    if (!read.ok) {
      // The rest of the body is never read, so the connection cannot carry another request.
      call.headers.connection = "close";
      if (read.reason === "too-large") {
        if (pools.length > 0) await takeFromPools(call, pools, 0);
        return refuse(response, call, "EPX0005");
      }
      return refuse(response, call, "EPX0006", {
        message:
          read.reason === "timeout"
            ? "Request body did not arrive within the time allowed."
            : "Request body could not be read.",
      });
    }

    if (pools.length > 0) {
      const taken = await takeFromPools(call, pools, 1);
      if (taken.refusedBy) {
        const ms = taken.result.retryAfterMs;
        return refuse(response, call, taken.refusedBy.code, { params: [String(ms)], retryAfterMs: ms });
      }
    }

    const forwardedUrl = route.forwardsQuery && mark !== -1 ? url : path;
    return forward(request, response, call, route, { url: forwardedUrl, orgId, body: read.body });
  }

  /** A locked-out call counts for the organization its credential names, when the cache knows it. */
  async function identifyLockedOut(call: CallContext, headers: IncomingMessage["headers"]): Promise<void> {
    const parsed = parseCredential(headers);
    if (!parsed.ok) return;
    call.orgId = await credentials.cachedOrganization(parsed);
    call.credentialKind = parsed.kind === "key" ? "api_key" : "project_id";
  }

  return async function answerApiCall(request, response, requestId) {
    const started = performance.now();
    const call: CallContext = {
      requestId,
      ip: clientAddress(request.socket.remoteAddress ?? "unknown", request.headers["x-forwarded-for"], trust),
      status: 0,
      operation: "none",
      headers: {},
      reachedHub: false,
      orgId: undefined,
      credentialKind: "api_key",
      answerCode: "",
    };
    let code: string;
    try {
      code = await serve(request, response, call);
    } catch (error) {
      // Everything before the hub call is the gateway's own check against the store and the counters.
      logger.error(
        { request_id: call.requestId, err: error, operation: call.operation },
        "credential or counters could not be checked",
      );
      code = response.headersSent
        ? "unknown"
        : refuse(response, call, call.reachedHub ? "EPX0051" : "EPX0053");
    }
    if (usage !== undefined && call.orgId !== undefined) {
      usage.count(call.orgId, call.credentialKind, code === "unknown" ? "unknown" : call.answerCode);
    }
    const ms = performance.now() - started;
    metrics.observe(call.operation, code, call.status, ms / 1000);
    // Every refusal of the gateway's own is logged at info; passed-through answers only at debug, since a
    // line per call costs a quarter of the gateway's time and /metrics counts them.
    const level = code === "OK" || code === "hub" || code === "preflight" ? "debug" : "info";
    if (logger.isLevelEnabled(level)) {
      logger[level](
        { request_id: call.requestId, operation: call.operation, code, status: call.status, ms },
        "answered",
      );
    }
  };
}
