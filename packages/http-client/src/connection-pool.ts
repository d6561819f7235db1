import { assignExchange, discardConnection } from "./connection-pool/connection-dispatch.js";
import { abortExchange, checkDeadlines } from "./connection-pool/deadlines.js";
import type {
  ConnectionPoolConfig,
  KeptAlive,
  PoolDeadline,
  ResponseReader,
} from "./connection-pool/pool-config.js";
import { createPoolState, type Exchange } from "./connection-pool/pool-state.js";
import { ended, fail, failed, received } from "./connection-pool/socket-listeners.js";

export type {
  ConnectionPoolConfig,
  KeptAlive,
  PoolDeadline,
  ResponseReader,
} from "./connection-pool/pool-config.js";

/** Keep-alive connections to one server: a call is written at once on an idle or new socket, else queued. */
export interface ConnectionPool<Request, Answer, Deadline> {
  /** Sends the request; its answer as `reader` reads it, or a rejection (`deadlineReason` when the deadline ended it). */
  exchange(request: Request, reader: ResponseReader<Answer>, deadline: Deadline | undefined): Promise<Answer>;
  /** Waits for the calls in flight, then closes every connection; calls after it are refused. */
  close(): Promise<void>;
}

/**
 * HTTP/1.1 to one server over at most `connections` keep-alive sockets (node:net, or node:tls), one call
 * per socket at a time, the calls beyond them queued in order. Every socket is always read, so bytes or a
 * close on an idle socket drop it at once: it is never used again. Only the call's deadline ends a call
 * early; a written request is never sent again.
 */
export function createConnectionPool<Request, Answer extends KeptAlive, Deadline extends PoolDeadline>(
  config: ConnectionPoolConfig<Request, Deadline>,
): ConnectionPool<Request, Answer, Deadline> {
  const pool = createPoolState<Request, Answer, Deadline>(config, { received, failed, ended, fail });
  const { attach, watchEveryMs } = pool;

  return {
    exchange(request, reader, deadline) {
      return new Promise((resolve, reject) => {
        if (pool.closing) {
          reject(config.closedError());
          return;
        }
        if (deadline?.aborted) {
          reject(config.deadlineReason(deadline));
          return;
        }
        const exchange: Exchange<Request, Answer, Deadline> = {
          request,
          reader,
          deadline,
          resolve,
          reject,
          connection: undefined,
          settled: false,
        };
        if (deadline !== undefined) {
          if (attach !== undefined) attach(deadline, () => abortExchange(pool, exchange, deadline));
          else pool.watch ??= setInterval(checkDeadlines, watchEveryMs, pool).unref();
        }
        pool.active += 1;
        assignExchange(pool, exchange);
      });
    },
    close(): Promise<void> {
      pool.closed ??= (async () => {
        pool.closing = true;
        if (pool.active > 0) await new Promise<void>((resolve) => (pool.drained = resolve));
        for (const connection of [...pool.all]) discardConnection(pool, connection);
        if (pool.sweep !== undefined) clearInterval(pool.sweep);
        pool.sweep = undefined;
        if (pool.watch !== undefined) clearInterval(pool.watch);
        pool.watch = undefined;
      })();
      return pool.closed;
    },
  };
}
