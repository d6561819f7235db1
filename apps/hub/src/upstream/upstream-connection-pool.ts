import { type ConnectionPool, createConnectionPool } from "@hub/http-client";
import type { CallDeadline } from "./call-deadline.js";
import { type ParsedAnswer, socketError, UpstreamHttpError } from "./upstream-answer-parser.js";

/** undici's defaults, kept: idle sockets go after 30 s, or 2 s before the upstream's `keep-alive: timeout=`. */
const KEEP_ALIVE_TIMEOUT_MS = 30_000;
const KEEP_ALIVE_MAX_TIMEOUT_MS = 600_000;
const CONNECT_TIMEOUT_MS = 10_000;
const SWEEP_INTERVAL_MS = 1_000;

/** The call's deadline is handed the pool's abort while the call is out. */
function attachDeadline(deadline: CallDeadline, abort: (() => void) | undefined): void {
  deadline.onAbort = abort;
}

function identity(bytes: Buffer | string): Buffer | string {
  return bytes;
}

/** Keep-alive connections to one upstream, with undici's timeouts and errors. */
export function createUpstreamConnectionPool(
  origin: URL,
  connections: number,
): ConnectionPool<Buffer | string, ParsedAnswer, CallDeadline> {
  return createConnectionPool<Buffer | string, ParsedAnswer, CallDeadline>({
    origin,
    connections,
    requestBytes: identity,
    keepAliveTimeoutMs: KEEP_ALIVE_TIMEOUT_MS,
    keepAliveMaxTimeoutMs: KEEP_ALIVE_MAX_TIMEOUT_MS,
    sweepIntervalMs: SWEEP_INTERVAL_MS,
    unrefIdle: true,
    // A reset after an answer read to the close still ends that answer, as in undici.
    resetEndsReadToClose: true,
    connectTimeout: {
      ms: CONNECT_TIMEOUT_MS,
      error: (address) =>
        new UpstreamHttpError(
          "UND_ERR_CONNECT_TIMEOUT",
          `Connect Timeout Error (attempted address: ${address}, timeout: ${CONNECT_TIMEOUT_MS}ms)`,
        ),
    },
    closedError: () => new UpstreamHttpError("UND_ERR_DESTROYED", "The client is destroyed"),
    socketClosedError: () => socketError("closed"),
    deadlineReason: (deadline) => deadline.reason,
    deadlines: { attach: attachDeadline },
  });
}
