import { connect as connectTcp, type Socket } from "node:net";
import { connect as connectTls } from "node:tls";
import type { KeptAlive, PoolDeadline } from "./pool-config.js";
import type { Connection, PoolState } from "./pool-state.js";

const TCP_KEEP_ALIVE_DELAY_MS = 60_000;

/** A new socket to the pool's server, every event of it heard by the pool's listeners. */
export function openConnection<Request, Answer extends KeptAlive, Deadline extends PoolDeadline>(
  pool: PoolState<Request, Answer, Deadline>,
): Connection<Request, Answer, Deadline> {
  const { config, listeners, secure, hostname, port, readBuffer } = pool;
  let connection: Connection<Request, Answer, Deadline>;
  const socket: Socket = secure
    ? connectTls({
        host: hostname,
        port,
        servername: pool.servername,
        session: pool.session,
        ALPNProtocols: ["http/1.1"],
      })
    : connectTcp({
        host: hostname,
        port,
        noDelay: true,
        keepAlive: true,
        keepAliveInitialDelay: TCP_KEEP_ALIVE_DELAY_MS,
        onread: {
          buffer: readBuffer,
          callback: (length: number) => {
            listeners.received(pool, connection, readBuffer.subarray(0, length));
            return true;
          },
        },
      });
  connection = {
    socket,
    exchange: undefined,
    connectTimer: undefined,
    idleSince: 0,
    idleLimitMs: config.keepAliveTimeoutMs,
  };
  pool.all.add(connection);
  if (secure) {
    socket.setKeepAlive(true, TCP_KEEP_ALIVE_DELAY_MS);
    socket.setNoDelay(true);
    socket.on("data", (chunk: Buffer) => listeners.received(pool, connection, chunk));
    socket.on("session", (ticket: Buffer) => {
      pool.session = ticket;
    });
  }
  const { connectTimeout } = config;
  if (connectTimeout !== undefined) {
    connection.connectTimer = setTimeout(
      () => listeners.fail(pool, connection, connectTimeout.error(`${hostname}:${port}`)),
      connectTimeout.ms,
    );
    connection.connectTimer.unref();
    socket.once(secure ? "secureConnect" : "connect", () => {
      clearTimeout(connection.connectTimer);
      connection.connectTimer = undefined;
    });
  }
  socket.on("error", (error) => listeners.failed(pool, connection, error));
  socket.on("end", () => listeners.ended(pool, connection));
  socket.on("close", () => listeners.fail(pool, connection, undefined));
  return connection;
}
