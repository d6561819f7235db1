// An nginx `proxy_pass` hop for the gateway benchmark: nginx (@hub/test-support's, one worker,
// keep-alive upstream, no access log) in front of a listener, and the worker's CPU time read from
// /proc. Without Debian's nginx-light the benchmark prints why there is no nginx figure.
import { existsSync, readFileSync } from "node:fs";
import { nginxMissing, startNginxSite } from "@hub/test-support";

export interface NginxHop {
  url: string;
  /** CPU time (user + system) of the worker so far, in microseconds (clock ticks of 10 ms). */
  cpuMicros(): number;
  close(): Promise<void>;
}

/** nginx proxying every request to `upstream` (host:port) with `headers` set; or why it cannot start. */
export async function startNginxHop(
  upstream: string,
  headers: Record<string, string>,
): Promise<NginxHop | { unavailable: string }> {
  const missing = nginxMissing();
  if (missing) return { unavailable: missing };
  const setHeaders = Object.entries(headers)
    .map(([name, value]) => `proxy_set_header ${name} "${value}";`)
    .join(" ");
  const nginx = await startNginxSite(
    (port) => `  upstream hub { server ${upstream}; keepalive 64; }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://hub; proxy_http_version 1.1; proxy_set_header Connection ""; ${setHeaders}
    }
  }`,
  );
  const children = `/proc/${nginx.pid}/task/${nginx.pid}/children`;
  const worker = existsSync(children) ? Number(readFileSync(children, "utf8").trim().split(" ")[0]) : 0;
  if (!(worker > 0)) {
    await nginx.close();
    return { unavailable: `no nginx worker process under ${nginx.pid}` };
  }
  return {
    url: nginx.origin,
    cpuMicros() {
      // /proc/<pid>/stat: utime and stime are fields 14 and 15, in clock ticks; the name may hold spaces.
      const fields = readFileSync(`/proc/${worker}/stat`, "utf8").split(") ")[1]!.split(" ");
      return (Number(fields[11]) + Number(fields[12])) * 10_000;
    },
    close: () => nginx.close(),
  };
}
