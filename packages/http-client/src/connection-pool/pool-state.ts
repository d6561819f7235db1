import { isIP, type Socket } from "node:net";
import type { ConnectionPoolConfig, KeptAlive, PoolDeadline, ResponseReader } from "./pool-config.js";

const READ_BUFFER_BYTES = 64 * 1024;

export interface Exchange<Request, Answer, Deadline> {
  readonly request: Request;
  readonly reader: ResponseReader<Answer>;
  readonly deadline: Deadline | undefined;
  readonly resolve: (answer: Answer) => void;
  readonly reject: (error: unknown) => void;
  connection: Connection<Request, Answer, Deadline> | undefined;
  settled: boolean;
}

export interface Connection<Request, Answer, Deadline> {
  readonly socket: Socket;
  exchange: Exchange<Request, Answer, Deadline> | undefined;
  connectTimer: NodeJS.Timeout | undefined;
  idleSince: number;
  idleLimitMs: number;
}

/** What the pool does when a socket reads, fails, ends or closes; held here so opening a socket needs no import of them. */
export interface SocketListeners<Request, Answer extends KeptAlive, Deadline extends PoolDeadline> {
  readonly received: (
    pool: PoolState<Request, Answer, Deadline>,
    connection: Connection<Request, Answer, Deadline>,
    chunk: Buffer,
  ) => void;
  readonly failed: (
    pool: PoolState<Request, Answer, Deadline>,
    connection: Connection<Request, Answer, Deadline>,
    error: Error,
  ) => void;
  readonly ended: (
    pool: PoolState<Request, Answer, Deadline>,
    connection: Connection<Request, Answer, Deadline>,
  ) => void;
  readonly fail: (
    pool: PoolState<Request, Answer, Deadline>,
    connection: Connection<Request, Answer, Deadline>,
    error: unknown,
  ) => void;
}

/** One pool's server address, sockets, queue and timers, shared by the modules that run it. */
export interface PoolState<Request, Answer extends KeptAlive, Deadline extends PoolDeadline> {
  readonly config: ConnectionPoolConfig<Request, Deadline>;
  readonly listeners: SocketListeners<Request, Answer, Deadline>;
  readonly secure: boolean;
  readonly hostname: string;
  readonly port: number;
  readonly servername: string;
  readonly attach: ((deadline: Deadline, abort: (() => void) | undefined) => void) | undefined;
  readonly watchEveryMs: number | undefined;
  readonly all: Set<Connection<Request, Answer, Deadline>>;
  readonly idle: Connection<Request, Answer, Deadline>[];
  readonly queue: Exchange<Request, Answer, Deadline>[];
  /** Plain sockets read into this one buffer; the reader copies what it keeps before the next read. */
  readonly readBuffer: Buffer;
  active: number;
  closing: boolean;
  closed: Promise<void> | undefined;
  drained: (() => void) | undefined;
  sweep: NodeJS.Timeout | undefined;
  watch: NodeJS.Timeout | undefined;
  session: Buffer | undefined;
}

export function createPoolState<Request, Answer extends KeptAlive, Deadline extends PoolDeadline>(
  config: ConnectionPoolConfig<Request, Deadline>,
  listeners: SocketListeners<Request, Answer, Deadline>,
): PoolState<Request, Answer, Deadline> {
  const { origin } = config;
  const secure = origin.protocol === "https:";
  const hostname = origin.hostname.replace(/^\[|\]$/g, "");
  return {
    config,
    listeners,
    secure,
    hostname,
    port: origin.port === "" ? (secure ? 443 : 80) : Number(origin.port),
    servername: isIP(hostname) === 0 ? hostname : "",
    attach: "attach" in config.deadlines ? config.deadlines.attach : undefined,
    watchEveryMs: "watchEveryMs" in config.deadlines ? config.deadlines.watchEveryMs : undefined,
    all: new Set(),
    idle: [],
    queue: [],
    readBuffer: Buffer.allocUnsafe(READ_BUFFER_BYTES),
    active: 0,
    closing: false,
    closed: undefined,
    drained: undefined,
    sweep: undefined,
    watch: undefined,
    session: undefined,
  };
}
