/** What the pool reads a response with: one per call, fed every byte its connection receives. */
export interface ResponseReader<Answer> {
  /** Feeds the next bytes; the answer once complete. Throws on bytes that are not a response. */
  push(chunk: Buffer): Answer | undefined;
  /** True when the body runs to the close. */
  readonly endsAtClose: boolean;
  /** The answer whose body ran to the close (only when `endsAtClose`). */
  end(): Answer;
  /** The error for a connection that ended before its answer did. */
  cutShort(): Error;
}

/** What the pool needs of an answer: whether its connection may carry the next call, and for how long. */
export interface KeptAlive {
  readonly keepAlive: boolean;
  /** The server's `keep-alive: timeout=N`, in ms, when it sent one. */
  readonly keepAliveHintMs: number | undefined;
}

/** A call's deadline as the pool reads it. */
export interface PoolDeadline {
  readonly aborted: boolean;
}

export interface ConnectionPoolConfig<Request, Deadline extends PoolDeadline> {
  /** The server's origin: http:, or https: (node:tls with the default certificate checks and SNI). */
  readonly origin: URL;
  readonly connections: number;
  /** A call's bytes, made when it gets its connection; a throw fails that call alone. */
  readonly requestBytes: (request: Request) => Buffer | string;
  /** How long an idle connection is kept when the answer gave no `keep-alive: timeout=`. */
  readonly keepAliveTimeoutMs: number;
  /** The most an answer's `keep-alive: timeout=` (less 2 s) keeps an idle connection. */
  readonly keepAliveMaxTimeoutMs: number;
  readonly sweepIntervalMs: number;
  /** Idle sockets do not hold the process open (a call in flight does). */
  readonly unrefIdle: boolean;
  /** A reset after an answer that runs to the close ends that answer (undici's way) instead of failing it. */
  readonly resetEndsReadToClose: boolean;
  /** Gives up on a connection not made within `ms`, with that error (given the `host:port` it tried). */
  readonly connectTimeout?: { readonly ms: number; readonly error: (address: string) => Error };
  /** Why a call was refused once `close` was called. */
  readonly closedError: () => Error;
  /** Why a call failed when its socket closed under it without an end or an error. */
  readonly socketClosedError: () => Error;
  /** Why a call ended by its deadline failed. */
  readonly deadlineReason: (deadline: Deadline) => unknown;
  /**
   * How a passed deadline is learnt. `watchEveryMs`: `aborted` is read every that many ms while calls
   * are in flight. `attach`: the deadline is handed the call's abort while the call is out (undefined at
   * its end), to call when it passes.
   */
  readonly deadlines:
    | { readonly watchEveryMs: number }
    | { readonly attach: (deadline: Deadline, abort: (() => void) | undefined) => void };
}
