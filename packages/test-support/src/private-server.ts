import { existsSync, readdirSync } from "node:fs";
import { delimiter, join } from "node:path";

/** Where Debian keeps initdb, pg_ctl and postgres: the newest installed major version (15 here). */
export const POSTGRES_BIN = (() => {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root)
    ? readdirSync(root).filter((v) => existsSync(join(root, v, "bin/initdb")))
    : [];
  const newest = versions.sort((x, y) => Number(y) - Number(x))[0];
  return join(root, newest ?? "15", "bin");
})();

/** A server of a test's own (PostgreSQL or Redis) that the test may stop and start again on the same port. */
export interface PrivateServer {
  /** How to reach it while it runs. */
  readonly url: string;
  /** Stops it cleanly. PostgreSQL keeps its data for the next start; Redis, persisting nothing, comes back empty. */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  /** Stops it if it runs and removes everything it wrote. */
  close(): Promise<void>;
}

/**
 * Why private servers cannot run here (PostgreSQL's binaries or redis-server absent), or false.
 * With CI=true a missing one is an error, not a skip.
 */
export function privateServersMissing(): string | false {
  const redisOnPath = (process.env.PATH ?? "")
    .split(delimiter)
    .some((dir) => existsSync(join(dir, "redis-server")));
  const missing = !existsSync(POSTGRES_BIN)
    ? `${POSTGRES_BIN} is absent (Debian's postgresql)`
    : redisOnPath
      ? false
      : "redis-server is not on PATH (Debian's redis-server)";
  if (missing && process.env.CI === "true") throw new Error(`private servers are needed in CI: ${missing}`);
  return missing;
}
