import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { type AddressInfo, connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { assertRefusal, callGateway } from "./fixtures/call-gateway.js";
import { type StartedGateway, startGateway } from "./fixtures/start-gateway.js";

const NGINX = "/usr/sbin/nginx";
const missing = existsSync(NGINX) ? false : `${NGINX} is absent (Debian's nginx-light; .ci/run installs it)`;
if (missing) {
  if (process.env.CI === "true") throw new Error(`the proxy test needs nginx in CI: ${missing}`);
  console.log(`skipping the gateway-behind-nginx test: ${missing}`);
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
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

describe("the gateway behind nginx with GATEWAY_TRUSTED_PROXIES", { skip: missing }, () => {
  let gw: StartedGateway;
  let nginx: ChildProcess;
  let prefix: string;
  let origin: string;

  before(async () => {
    gw = await startGateway({ config: { trustedProxies: ["127.0.0.1/32"] } });
    prefix = await mkdtemp(join(tmpdir(), "gateway-nginx-"));
    const port = await freePort();
    const gatewayPort = new URL(gw.origin).port;
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
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://127.0.0.1:${gatewayPort};
      proxy_http_version 1.1;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    }
  }
}
`,
    );
    nginx = spawn(NGINX, ["-p", prefix, "-c", join(prefix, "nginx.conf"), "-e", join(prefix, "error.log")], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    nginx.stderr?.on("data", (chunk) => {
      stderr += String(chunk);
    });
    try {
      await waitForPort(port, Date.now() + 10_000);
    } catch (error) {
      const log = await readFile(join(prefix, "error.log"), "utf8").catch(() => "");
      throw new Error(`nginx did not start: ${stderr}${log}`, { cause: error });
    }
    origin = `http://127.0.0.1:${port}`;
  });

  after(async () => {
    if (nginx?.pid !== undefined && nginx.exitCode === null) {
      const exited = new Promise((resolve) => nginx.once("exit", resolve));
      process.kill(nginx.pid, "SIGTERM");
      await exited;
    }
    await gw?.close();
    if (prefix) await rm(prefix, { recursive: true, force: true });
  });

  test("one client through the proxy is locked out after 20 bad keys; another through the same proxy is not", async () => {
    const { key } = gw.access.addKey("org_proxy");
    const attacker = { "x-forwarded-for": "203.0.113.7" };
    const neighbour = { "x-forwarded-for": "198.51.100.20" };
    for (let i = 0; i < 20; i++) {
      const refused = await callGateway(origin, "GET", "/v1/catalog", {
        headers: { ...attacker, "x-api-key": `svc_sk_${String(i).padStart(43, "Z")}` },
      });
      assertRefusal(refused, "EPX0002", 401);
    }
    const locked = await callGateway(origin, "GET", "/v1/catalog", {
      headers: { ...attacker, "x-api-key": key },
    });
    assertRefusal(locked, "EPX0081", 429);
    const other = await callGateway(origin, "GET", "/v1/catalog", {
      headers: { ...neighbour, "x-api-key": key },
    });
    assert.equal(other.status, 200);
    // A client that sends no header is the proxy's own peer, 127.0.0.1: not locked either.
    const plain = await callGateway(origin, "GET", "/v1/catalog", { headers: { "x-api-key": key } });
    assert.equal(plain.status, 200);
    // The gateway ignores what the attacker claims left of its own entry.
    const spoofed = await callGateway(origin, "GET", "/v1/catalog", {
      headers: { "x-forwarded-for": "198.51.100.20, 203.0.113.7", "x-api-key": key },
    });
    assertRefusal(spoofed, "EPX0081", 429);
  });
});
