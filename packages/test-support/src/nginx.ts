import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./free-port.js";

/** Debian's nginx-light (`.ci/run` installs it). */
export const NGINX = "/usr/sbin/nginx";

export interface RunningNginx {
  /** http://127.0.0.1:PORT */
  origin: string;
  stop(): Promise<void>;
}

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * Runs nginx in the foreground from a temporary prefix with the given server blocks, which take the
 * chosen port from `site(port)` (write it as `listen 127.0.0.1:${port};`). Resolves once it listens.
 */
export async function startNginx(site: (port: number) => string): Promise<RunningNginx> {
  const prefix = await mkdtemp(join(tmpdir(), "test-nginx-"));
  const port = await freePort();
  await writeFile(
    join(prefix, "nginx.conf"),
    `daemon off;
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log;
events { worker_connections 64; }
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
  const stop = async () => {
    if (nginx.pid !== undefined && nginx.exitCode === null) {
      const exited = new Promise((resolve) => nginx.once("exit", resolve));
      nginx.kill("SIGTERM");
      await exited;
    }
    await rm(prefix, { recursive: true, force: true });
  };
  const deadline = Date.now() + 10_000;
  while (!(await answers(port))) {
    if (Date.now() > deadline || nginx.exitCode !== null) {
      const log = await readFile(join(prefix, "error.log"), "utf8").catch(() => "");
      await stop();
      throw new Error(`nginx did not start: ${stderr}${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { origin: `http://127.0.0.1:${port}`, stop };
}
