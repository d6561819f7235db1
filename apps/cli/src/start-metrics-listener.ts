import { listenerUrl } from "./listener-url.js";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Registry } from "prom-client";

/** The operator listener: GET /metrics of every registry given, /livez and /readyz (alias /healthz), nothing else. */
export interface MetricsListener {
  readonly url: string;
  stop(): Promise<void>;
}

/**
 * Listens on host:port (127.0.0.1 unless told) and serves the merged registries' samples at /metrics,
 * and the stack's readiness report at /readyz (200 when ready, else 503).
 */
export async function startMetricsListener(options: {
  registries: readonly Registry[];
  /** The report /readyz answers; absent, the process is ready once it listens. */
  readiness?: () => Promise<{ status: string }>;
  port: number;
  host?: string;
}): Promise<MetricsListener> {
  const contentType = options.registries[0]?.contentType ?? "text/plain; version=0.0.4; charset=utf-8";
  // Read at each scrape, so a metric registered after the listener started is still served.
  const scrape = async () =>
    (await Promise.all(options.registries.map((registry) => registry.metrics()))).join("\n");
  const readiness = options.readiness ?? (async () => ({ status: "ready", notReady: [], checks: [] }));
  const sendJson = (response: ServerResponse, status: number, body: unknown, head: boolean) => {
    response.writeHead(status, {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
    });
    response.end(head ? undefined : JSON.stringify(body));
  };
  const server = createServer((request, response) => {
    const path = (request.url ?? "").split("?", 1)[0];
    const read = request.method === "GET" || request.method === "HEAD";
    const head = request.method === "HEAD";
    if (read && path === "/livez") return sendJson(response, 200, { status: "live" }, head);
    if (read && (path === "/readyz" || path === "/healthz")) {
      readiness().then(
        (report) =>
          sendJson(
            response,
            report.status === "ready" || report.status === "degraded" ? 200 : 503,
            report,
            head,
          ),
        (error: unknown) => sendJson(response, 503, { status: "not-ready", error: String(error) }, head),
      );
      return;
    }
    if (path !== "/metrics" || !read) {
      response.writeHead(404, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" });
      response.end("not found\n");
      return;
    }
    scrape().then(
      (text) => {
        response.writeHead(200, { "content-type": contentType, "cache-control": "no-store" });
        response.end(head ? undefined : text);
      },
      () => {
        response.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
        response.end("metrics unavailable\n");
      },
    );
  });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `${listenerUrl(host, port)}/metrics`,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
