import { discardConnection, releaseConnection } from "./connection-dispatch.js";
import type { KeptAlive, PoolDeadline } from "./pool-config.js";
import type { Connection, Exchange, PoolState } from "./pool-state.js";
import { settleExchange } from "./settle-exchange.js";

/** Bytes in: fed to the call's reader, the call answered once it is complete. */
export function received<Request, Answer extends KeptAlive, Deadline extends PoolDeadline>(
  pool: PoolState<Request, Answer, Deadline>,
  connection: Connection<Request, Answer, Deadline>,
  chunk: Buffer,
): void {
  const exchange = connection.exchange;
  if (exchange === undefined) {
    // Bytes on an idle socket answer nothing that was asked: the socket is not used again.
    discardConnection(pool, connection);
    return;
  }
  let answer: Answer | undefined;
  try {
    answer = exchange.reader.push(chunk);
  } catch (error) {
    fail(pool, connection, error);
    return;
  }
  if (answer === undefined) return;
  connection.exchange = undefined;
  settleExchange(pool, exchange);
  exchange.resolve(answer);
  releaseConnection(pool, connection, answer);
}

/** The server closed its side: an answer read to the close ends there, any other is cut short. */
export function ended<Request, Answer extends KeptAlive, Deadline extends PoolDeadline>(
  pool: PoolState<Request, Answer, Deadline>,
  connection: Connection<Request, Answer, Deadline>,
): void {
  const exchange = connection.exchange;
  if (exchange === undefined) discardConnection(pool, connection);
  else if (exchange.reader.endsAtClose) complete(pool, connection, exchange);
  else fail(pool, connection, exchange.reader.cutShort());
}

export function failed<Request, Answer extends KeptAlive, Deadline extends PoolDeadline>(
  pool: PoolState<Request, Answer, Deadline>,
  connection: Connection<Request, Answer, Deadline>,
  error: Error,
): void {
  const exchange = connection.exchange;
  if (
    pool.config.resetEndsReadToClose &&
    exchange?.reader.endsAtClose &&
    (error as { code?: string }).code === "ECONNRESET"
  ) {
    complete(pool, connection, exchange);
    return;
  }
  fail(pool, connection, error);
}

function complete<Request, Answer extends KeptAlive, Deadline extends PoolDeadline>(
  pool: PoolState<Request, Answer, Deadline>,
  connection: Connection<Request, Answer, Deadline>,
  exchange: Exchange<Request, Answer, Deadline>,
): void {
  connection.exchange = undefined;
  discardConnection(pool, connection);
  settleExchange(pool, exchange);
  exchange.resolve(exchange.reader.end());
}

/** Drops the connection, failing its call with `error` (a close with none: `socketClosedError`). */
export function fail<Request, Answer extends KeptAlive, Deadline extends PoolDeadline>(
  pool: PoolState<Request, Answer, Deadline>,
  connection: Connection<Request, Answer, Deadline>,
  error: unknown,
): void {
  const exchange = connection.exchange;
  connection.exchange = undefined;
  discardConnection(pool, connection);
  if (exchange !== undefined && !exchange.settled) {
    settleExchange(pool, exchange);
    exchange.reject(error ?? pool.config.socketClosedError());
  }
}
