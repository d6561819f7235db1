import { execFile, execFileSync } from "node:child_process";
import { chownSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { freePort } from "./free-port.js";
import { POSTGRES_BIN, type PrivateServer } from "./private-server.js";

const run = promisify(execFile);
const asRoot = process.getuid?.() === 0;

/** Runs a PostgreSQL tool, as the postgres user when this process is root (the server refuses root). */
async function tool(name: string, args: string[]): Promise<void> {
  if (asRoot) await run("runuser", ["-u", "postgres", "--", join(POSTGRES_BIN, name), ...args]);
  else await run(join(POSTGRES_BIN, name), args);
}

/** A temp dir the server's user owns. */
function serverTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (asRoot) {
    const ids = /^postgres:[^:]*:(\d+):(\d+):/m.exec(readFileSync("/etc/passwd", "utf8"));
    if (!ids) throw new Error("no postgres user to run a private PostgreSQL as");
    chownSync(dir, Number(ids[1]), Number(ids[2]));
  }
  return dir;
}

let template: Promise<string> | undefined;

/** One initdb per process, into a template cluster every private server copies. */
function initTemplate(): Promise<string> {
  template ??= (async () => {
    const home = serverTempDir("private-postgres-template-");
    process.once("exit", () => rmSync(home, { recursive: true, force: true }));
    const data = join(home, "data");
    await tool("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
    return data;
  })();
  return template;
}

/**
 * A PostgreSQL server of its own on a random 127.0.0.1 port (its socket in its temp dir), for tests
 * that stop or restart the database: never the machine's shared one. `url` names its `postgres`
 * database, trust auth; `stop()` is a fast shutdown, `start()` runs it again on the same port and data.
 */
export async function startPrivatePostgres(): Promise<PrivateServer> {
  const source = await initTemplate();
  const home = serverTempDir("private-postgres-");
  const data = join(home, "data");
  // cp -a keeps the owner and the 0700 mode the server insists on.
  await run("cp", ["-a", source, data]);
  const port = await freePort();
  const options = `-p ${port} -k ${home} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
  let running = false;

  // pg_ctl runs the server detached: a test process that dies without close() must not leave it behind.
  const stopOnExit = () => {
    const pgCtl = join(POSTGRES_BIN, "pg_ctl");
    const args = ["-D", data, "-m", "immediate", "stop"];
    execFileSync(asRoot ? "runuser" : pgCtl, asRoot ? ["-u", "postgres", "--", pgCtl, ...args] : args, {
      stdio: "ignore",
    });
    rmSync(home, { recursive: true, force: true });
  };
  const start = async () => {
    await tool("pg_ctl", ["-D", data, "-o", options, "-l", join(home, "log"), "-w", "-t", "60", "start"]);
    running = true;
    process.once("exit", stopOnExit);
  };
  const stop = async () => {
    if (!running) return;
    await tool("pg_ctl", ["-D", data, "-m", "fast", "-w", "-t", "60", "stop"]);
    running = false;
    process.off("exit", stopOnExit);
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    async close() {
      await stop();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
