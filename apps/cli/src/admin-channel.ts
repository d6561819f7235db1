import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type Admin, AdminRefusal } from "@hub/admin";
import type { Logger } from "pino";
import {
  ADMIN_CHANNEL_PATH,
  ADMIN_TOKEN_HEADER,
  type AdminChannelAnswer,
  type AdminChannelFile,
  adminChannelFilePath,
  readAdminChannelFile,
} from "./admin-channel-file.js";
import { adminRequestSchema } from "./admin-request.js";
import { executeAdminRequest } from "./execute-admin-request.js";

const BODY_LIMIT_BYTES = 64 * 1024;

export interface AdminChannelDeps {
  admin: Admin;
  dataDir: string;
  logger: Pick<Logger, "info" | "warn" | "error">;
}

export interface AdminChannel {
  readonly port: number;
  stop(): Promise<void>;
}

const digest = (value: string) => createHash("sha256").update(value).digest();

function answer(response: ServerResponse, status: number, body: AdminChannelAnswer): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
  });
  response.end(text);
}

async function readBody(request: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Lets `hub admin` reach a running service that holds the embedded database (a PGlite dir has one
 * opener). Listens on 127.0.0.1 on a free port and writes `<dataDir>/admin.json` { port, token, pid }
 * (mode 0600); every request must carry the token. stop() closes it and removes the file.
 */
export async function startAdminChannel(deps: AdminChannelDeps): Promise<AdminChannel> {
  const { admin, dataDir, logger } = deps;
  const token = randomBytes(32).toString("base64url");
  const tokenDigest = digest(token);

  const server = createServer(async (request, response) => {
    try {
      if (request.method !== "POST" || request.url !== ADMIN_CHANNEL_PATH) {
        answer(response, 404, { ok: false, error: { code: "not-found", message: "POST /admin only" } });
        return;
      }
      const presented = request.headers[ADMIN_TOKEN_HEADER];
      if (typeof presented !== "string" || !timingSafeEqual(digest(presented), tokenDigest)) {
        logger.warn(
          { remote: request.socket.remoteAddress },
          "admin channel: request with a wrong token refused",
        );
        answer(response, 401, { ok: false, error: { code: "unauthorized", message: "wrong admin token" } });
        return;
      }
      const body = await readBody(request);
      if (body === undefined) {
        answer(response, 413, { ok: false, error: { code: "invalid-request", message: "body over 64 KiB" } });
        return;
      }
      let parsed: ReturnType<typeof adminRequestSchema.safeParse>;
      try {
        parsed = adminRequestSchema.safeParse(JSON.parse(body));
      } catch {
        answer(response, 400, { ok: false, error: { code: "invalid-request", message: "body is not JSON" } });
        return;
      }
      if (!parsed.success) {
        answer(response, 400, {
          ok: false,
          error: { code: "invalid-request", message: parsed.error.message },
        });
        return;
      }
      try {
        const result = await executeAdminRequest(admin, parsed.data);
        logger.info({ verb: parsed.data.verb }, "admin channel: done");
        answer(response, 200, { ok: true, result });
      } catch (error) {
        if (error instanceof AdminRefusal) {
          logger.info({ verb: parsed.data.verb, code: error.code }, "admin channel: refused");
          answer(response, 400, { ok: false, error: { code: error.code, message: error.message } });
          return;
        }
        throw error;
      }
    } catch (error) {
      logger.error({ err: error }, "admin channel: request failed");
      if (!response.headersSent) {
        answer(response, 500, { ok: false, error: { code: "internal", message: (error as Error).message } });
      }
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  const file: AdminChannelFile = { port, token, pid: process.pid };
  const path = adminChannelFilePath(dataDir);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(file)}\n`, { mode: 0o600 });
  renameSync(temporary, path);
  logger.info({ port, file: path }, "admin channel listening");

  return {
    port,
    async stop() {
      // Leave the file alone if another service has taken the data dir over since.
      if (readAdminChannelFile(dataDir)?.token === token) rmSync(path, { force: true });
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
