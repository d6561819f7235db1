// An nginx `proxy_pass` hop for the gateway benchmark: nginx (one worker, keep-alive upstream, no access
// log) in front of a listener, and the worker's CPU time read from /proc. Debian's nginx-light is
// expected at /usr/sbin/nginx; without it the benchmark prints why there is no nginx figure.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

const NGINX = "/usr/sbin/nginx";

export interface NginxHop {
  url: string;
  /** CPU time (user + system) of the worker so far, in microseconds. */
  cpuMicros(): number;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** nginx proxying every request to `upstream` (host:port) with `headers` set; or why it cannot start. */
export async function startNginxHop(
  upstream: string,
  headers: Record<string, string>,
): Promise<NginxHop | { unavailable: string }> {
  if (!existsSync(NGINX)) return { unavailable: `no nginx at ${NGINX} (apt-get install nginx-light)` };
  const dir = mkdtempSync(join(tmpdir(), "bench-nginx-"));
  const port = await freePort();
  const setHeaders = Object.entries(headers)
    .map(([name, value]) => `proxy_set_header ${name} "${value}";`)
    .join(" ");
  writeFileSync(
    join(dir, "nginx.conf"),
    `worker_processes 1; daemon off; pid ${dir}/nginx.pid; error_log ${dir}/error.log;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
  upstream hub { server ${upstream}; keepalive 64; }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://hub; proxy_http_version 1.1; proxy_set_header Connection ""; ${setHeaders}
    }
  }
}
`,
  );
  const master: ChildProcess = spawn(NGINX, ["-p", dir, "-c", join(dir, "nginx.conf")], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  master.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const workerPid = async (): Promise<number | undefined> => {
    for (let i = 0; i < 100; i += 1) {
      const children = `/proc/${master.pid}/task/${master.pid}/children`;
      const pid = existsSync(children) ? Number(readFileSync(children, "utf8").trim().split(" ")[0]) : 0;
      if (pid > 0) return pid;
      if (master.exitCode !== null) return undefined;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return undefined;
  };
  const worker = await workerPid();
  if (worker === undefined) {
    master.kill();
    rmSync(dir, { recursive: true, force: true });
    return { unavailable: `nginx did not start: ${stderr.trim() || "no worker process"}` };
  }
  const ticksPerSecond = 100;
  return {
    url: `http://127.0.0.1:${port}`,
    cpuMicros() {
      // /proc/<pid>/stat: utime and stime are fields 14 and 15, in clock ticks; the name may hold spaces.
      const fields = readFileSync(`/proc/${worker}/stat`, "utf8").split(") ")[1]!.split(" ");
      return ((Number(fields[11]) + Number(fields[12])) * 1e6) / ticksPerSecond;
    },
    async close() {
      const exited = new Promise((resolve) => master.once("exit", resolve));
      master.kill("SIGQUIT");
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
