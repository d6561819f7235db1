import { discardConnection } from "./connection-dispatch.js";
import type { KeptAlive, PoolDeadline } from "./pool-config.js";
import type { Exchange, PoolState } from "./pool-state.js";
import { settleExchange } from "./settle-exchange.js";

/**
 * With `watchEveryMs` the deadline is read, not listened to. The check stops on a tick with no call in
 * flight, not at every moment none is: under load the count touches zero many times a second, and a
 * timer set and cleared each time cost more than a tick.
 */
export function checkDeadlines<Request, Answer extends KeptAlive, Deadline extends PoolDeadline>(
  pool: PoolState<Request, Answer, Deadline>,
): void {
  if (pool.active === 0) {
    clearInterval(pool.watch);
    pool.watch = undefined;
    return;
  }
  for (const connection of pool.all) {
    const exchange = connection.exchange;
    if (exchange?.deadline?.aborted) abortExchange(pool, exchange, exchange.deadline);
  }
  for (const exchange of [...pool.queue]) {
    if (exchange.deadline?.aborted) abortExchange(pool, exchange, exchange.deadline);
  }
}

/** The deadline passed: the socket is cut (the server sees the close), or the call leaves the queue. */
export function abortExchange<Request, Answer extends KeptAlive, Deadline extends PoolDeadline>(
  pool: PoolState<Request, Answer, Deadline>,
  exchange: Exchange<Request, Answer, Deadline>,
  deadline: Deadline,
): void {
  if (exchange.settled) return;
  const connection = exchange.connection;
  if (connection !== undefined) {
    connection.exchange = undefined;
    discardConnection(pool, connection);
  } else {
    const at = pool.queue.indexOf(exchange);
    if (at !== -1) pool.queue.splice(at, 1);
  }
  settleExchange(pool, exchange);
  exchange.reject(pool.config.deadlineReason(deadline));
}
