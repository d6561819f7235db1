import { openConnection } from "./open-connection.js";
import type { KeptAlive, PoolDeadline } from "./pool-config.js";
import type { Connection, Exchange, PoolState } from "./pool-state.js";
import { settleExchange } from "./settle-exchange.js";

/** How long before the server's own keep-alive timeout an idle connection is let go, so the two never cross. */
const KEEP_ALIVE_MARGIN_MS = 2_000;

/** The call takes the newest idle socket still fit to use, else a new socket while there is room, else waits in the queue. */
export function assignExchange<Request, Answer extends KeptAlive, Deadline extends PoolDeadline>(
  pool: PoolState<Request, Answer, Deadline>,
  exchange: Exchange<Request, Answer, Deadline>,
): void {
  const now = Date.now();
  let connection = pool.idle.pop();
  while (
    connection !== undefined &&
    (!connection.socket.writable || now - connection.idleSince >= connection.idleLimitMs)
  ) {
    discardConnection(pool, connection);
    connection = pool.idle.pop();
  }
  if (connection !== undefined) startExchange(pool, connection, exchange);
  else if (pool.all.size < pool.config.connections) startExchange(pool, openConnection(pool), exchange);
  else pool.queue.push(exchange);
}

function startExchange<Request, Answer extends KeptAlive, Deadline extends PoolDeadline>(
  pool: PoolState<Request, Answer, Deadline>,
  connection: Connection<Request, Answer, Deadline>,
  exchange: Exchange<Request, Answer, Deadline>,
): void {
  let bytes: Buffer | string;
  try {
    bytes = pool.config.requestBytes(exchange.request);
  } catch (error) {
    settleExchange(pool, exchange);
    exchange.reject(error);
    releaseConnection(pool, connection, undefined);
    return;
  }
  connection.exchange = exchange;
  exchange.connection = connection;
  if (pool.config.unrefIdle) connection.socket.ref();
  if (typeof bytes === "string") connection.socket.write(bytes, "latin1");
  else connection.socket.write(bytes);
}

/** The socket is done with its call (`answer`, if it had one): it takes the next queued call, waits idle, or goes. */
export function releaseConnection<Request, Answer extends KeptAlive, Deadline extends PoolDeadline>(
  pool: PoolState<Request, Answer, Deadline>,
  connection: Connection<Request, Answer, Deadline>,
  answer: Answer | undefined,
): void {
  const { config } = pool;
  if (answer !== undefined) {
    if (!answer.keepAlive) {
      discardConnection(pool, connection);
      return;
    }
    const hintMs = answer.keepAliveHintMs;
    connection.idleLimitMs =
      hintMs === undefined
        ? config.keepAliveTimeoutMs
        : Math.min(hintMs - KEEP_ALIVE_MARGIN_MS, config.keepAliveMaxTimeoutMs);
  }
  if (connection.idleLimitMs <= 0 || !connection.socket.writable) {
    discardConnection(pool, connection);
    return;
  }
  const next = pool.queue.shift();
  if (next !== undefined) {
    startExchange(pool, connection, next);
    return;
  }
  if (pool.closing) {
    discardConnection(pool, connection);
    return;
  }
  connection.idleSince = Date.now();
  if (config.unrefIdle) connection.socket.unref();
  pool.idle.push(connection);
  pool.sweep ??= setInterval(sweepIdle, config.sweepIntervalMs, pool).unref();
}

function sweepIdle<Request, Answer extends KeptAlive, Deadline extends PoolDeadline>(
  pool: PoolState<Request, Answer, Deadline>,
): void {
  const now = Date.now();
  for (const connection of [...pool.idle]) {
    if (now - connection.idleSince >= connection.idleLimitMs) discardConnection(pool, connection);
  }
  if (pool.idle.length === 0 && pool.sweep !== undefined) {
    clearInterval(pool.sweep);
    pool.sweep = undefined;
  }
}

/** Drops a socket for good; a queued call takes its place on a new one. */
export function discardConnection<Request, Answer extends KeptAlive, Deadline extends PoolDeadline>(
  pool: PoolState<Request, Answer, Deadline>,
  connection: Connection<Request, Answer, Deadline>,
): void {
  if (!pool.all.delete(connection)) return;
  const at = pool.idle.indexOf(connection);
  if (at !== -1) pool.idle.splice(at, 1);
  if (connection.connectTimer !== undefined) clearTimeout(connection.connectTimer);
  connection.socket.destroy();
  const next = pool.queue.shift();
  if (next !== undefined) assignExchange(pool, next);
}
