import type { KeptAlive, PoolDeadline } from "./pool-config.js";
import type { Exchange, PoolState } from "./pool-state.js";

/** Marks the call answered or failed: its deadline is let go, and the last one out wakes a waiting close. */
export function settleExchange<Request, Answer extends KeptAlive, Deadline extends PoolDeadline>(
  pool: PoolState<Request, Answer, Deadline>,
  exchange: Exchange<Request, Answer, Deadline>,
): void {
  exchange.settled = true;
  if (pool.attach !== undefined && exchange.deadline !== undefined) pool.attach(exchange.deadline, undefined);
  pool.active -= 1;
  if (pool.active === 0) pool.drained?.();
}
