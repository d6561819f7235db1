import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./free-port.js";

/** Debian's nginx-light (`.ci/run` installs it). */
export const NGINX = "/usr/sbin/nginx";

/**
 * Why the nginx tests cannot run here (Debian's nginx-light is absent), or false. With CI=true a
 * missing nginx is an error, not a skip.
 */
export function nginxMissing(): string | false {
  const missing = existsSync(NGINX)
    ? false
    : `${NGINX} is absent (Debian's nginx-light; .ci/run installs it)`;
  if (missing && process.env.CI === "true") throw new Error(`the proxy tests need nginx in CI: ${missing}`);
  return missing;
}

/** A running nginx in front of some upstreams: where clients reach it, and its stop. */
export interface StartedNginx {
  readonly origin: string;
  /** The master process's id (its one worker is its child). */
  readonly pid: number;
  close(): Promise<void>;
}

async function waitForPort(port: number, deadlineMs: number): Promise<void> {
  while (Date.now() < deadlineMs) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nothing listens on ${port}`);
}

/**
 * Starts nginx from a temp prefix on a free 127.0.0.1 port as a reverse proxy that appends the
 * client's address to X-Forwarded-For, load-balancing over `upstreams` (host:port, round robin; a
 * server that refuses connections is skipped and the request passed to the next, as in production).
 */
export function startNginx(upstreams: readonly string[]): Promise<StartedNginx> {
  return startNginxSite(
    (port) => `  upstream gateways {
${upstreams.map((upstream) => `    server ${upstream} max_fails=1 fail_timeout=10s;`).join("\n")}
    keepalive 16;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://gateways;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_read_timeout 30s;
    }
  }`,
  );
}

/**
 * Starts nginx from a temp prefix with the given `http` blocks, which take the chosen free port from
 * `site(port)` (written as `listen 127.0.0.1:${port};`). Resolves once it listens.
 */
export async function startNginxSite(site: (port: number) => string): Promise<StartedNginx> {
  const prefix = await mkdtemp(join(tmpdir(), "test-nginx-"));
  const port = await freePort();
  await writeFile(
    join(prefix, "nginx.conf"),
    `daemon off;
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
${site(port)}
}
`,
  );
  const nginx: ChildProcess = spawn(
    NGINX,
    ["-p", prefix, "-c", join(prefix, "nginx.conf"), "-e", join(prefix, "error.log")],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  nginx.stderr?.on("data", (chunk) => {
    stderr += String(chunk);
  });
  // A test process that dies without close() must not leave its nginx behind.
  const killOnExit = () => {
    nginx.kill("SIGKILL");
    rmSync(prefix, { recursive: true, force: true });
  };
  process.once("exit", killOnExit);
  const close = async () => {
    process.off("exit", killOnExit);
    if (nginx.pid !== undefined && nginx.exitCode === null) {
      const exited = new Promise((resolve) => nginx.once("exit", resolve));
      process.kill(nginx.pid, "SIGTERM");
      await exited;
    }
    await rm(prefix, { recursive: true, force: true });
  };
  try {
    await waitForPort(port, Date.now() + 10_000);
  } catch (error) {
    const log = await readFile(join(prefix, "error.log"), "utf8").catch(() => "");
    await close();
    throw new Error(`nginx did not start: ${stderr}${log}`, { cause: error });
  }
  if (nginx.pid === undefined) throw new Error("nginx listens but has no pid");
  return { origin: `http://127.0.0.1:${port}`, pid: nginx.pid, close };
}
