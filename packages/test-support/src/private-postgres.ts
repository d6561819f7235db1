import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./free-port.js";

/** Debian's PostgreSQL 15 server binaries (the `postgresql` package). */
const BIN = "/usr/lib/postgresql/15/bin";

/** A PostgreSQL server of the test's own, which it may stop and start again. */
export interface PrivatePostgres {
  /** postgres://postgres@127.0.0.1:PORT/postgres (trust authentication, this machine only). */
  url: string;
  /** Stops the server (fast shutdown: connections are cut); the data stays. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  /** Stops it and removes its data. */
  close(): Promise<void>;
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { timeout: 60_000 }, (error, stdout, stderr) =>
      error
        ? reject(new Error(`${command} ${args.join(" ")} failed: ${stderr || stdout || error.message}`))
        : resolve(),
    );
  });
}

/**
 * Starts a PostgreSQL 15 server in a temporary folder on a random port of 127.0.0.1, so a test can
 * stop and start it without touching the machine's shared server. PostgreSQL refuses to run as root,
 * so as root the server runs as the `postgres` user (runuser).
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const root = mkdtempSync(join(tmpdir(), "private-pg-"));
  const dataDir = join(root, "data");
  const socketDir = join(root, "socket");
  const asRoot = process.getuid?.() === 0;
  const as = (binary: string, args: string[]) =>
    asRoot
      ? run("runuser", ["-u", "postgres", "--", join(BIN, binary), ...args])
      : run(join(BIN, binary), args);
  mkdirSync(socketDir);
  if (asRoot) await run("chown", ["-R", "postgres:postgres", root]);
  await as("initdb", ["-D", dataDir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
  const port = await freePort();
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -k ${socketDir} -c fsync=off -c max_connections=50`;
  const start = async () => {
    await as("pg_ctl", [
      "-D",
      dataDir,
      "-o",
      options,
      "-l",
      join(root, "server.log"),
      "-w",
      "-t",
      "30",
      "start",
    ]);
  };
  let running = false;
  const stop = async () => {
    if (!running) return;
    await as("pg_ctl", ["-D", dataDir, "-m", "fast", "-w", "-t", "30", "stop"]);
    running = false;
  };
  await start();
  running = true;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop,
    async start() {
      if (running) return;
      await start();
      running = true;
    },
    async close() {
      await stop().catch(() => undefined);
      rmSync(root, { recursive: true, force: true });
    },
  };
}
