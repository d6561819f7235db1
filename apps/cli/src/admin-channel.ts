import { randomBytes } from "node:crypto";
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type Admin, AdminRefusal } from "@hub/admin";
import type { Logger } from "pino";
import {
  ADMIN_CHALLENGE_PATH,
  ADMIN_CHANNEL_PATH,
  ADMIN_NONCE_HEADER,
  ADMIN_NONCE_PATTERN,
  ADMIN_PROOF_HEADER,
  type AdminChallengeAnswer,
  type AdminChannelAnswer,
  type AdminChannelFile,
  adminChannelFilePath,
  readAdminChannelFile,
} from "./admin-channel-file.js";
import { adminChannelProof, isAdminChannelProof } from "./admin-channel-proof.js";
import { adminRequestSchema } from "./admin-request.js";
import { executeAdminRequest } from "./execute-admin-request.js";

const BODY_LIMIT_BYTES = 64 * 1024;
const CHALLENGE_LIFETIME_MS = 30_000;
const CHALLENGES_OUTSTANDING = 64;

export interface AdminChannelDeps {
  admin: Admin;
  dataDir: string;
  logger: Pick<Logger, "info" | "warn" | "error">;
}

export interface AdminChannel {
  readonly port: number;
  stop(): Promise<void>;
}

function send(
  response: ServerResponse,
  status: number,
  body: AdminChannelAnswer | AdminChallengeAnswer,
  proveAnswer?: (text: string) => string,
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...(proveAnswer ? { [ADMIN_PROOF_HEADER]: proveAnswer(text) } : {}),
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
 * (mode 0600). The token never travels: a caller first sends a nonce to /admin/challenge and gets the
 * server's nonce with the server's proof over both; its request then carries its own proof over both
 * nonces and the body, and the answer carries the server's proof over it. stop() closes it and removes the file.
 */
export async function startAdminChannel(deps: AdminChannelDeps): Promise<AdminChannel> {
  const { admin, dataDir, logger } = deps;
  const token = randomBytes(32).toString("base64url");
  // Server nonce -> the caller's nonce it answered; each is good for one request.
  const challenges = new Map<string, { clientNonce: string; expiresAtMs: number }>();
  const forgetExpired = (nowMs: number) => {
    for (const [nonce, challenge] of challenges) if (challenge.expiresAtMs <= nowMs) challenges.delete(nonce);
  };

  const server = createServer(async (request, response) => {
    let answer = (status: number, reply: AdminChannelAnswer) => send(response, status, reply);
    try {
      if (request.method === "POST" && request.url === ADMIN_CHALLENGE_PATH) {
        const body = await readBody(request);
        let clientNonce: unknown;
        try {
          clientNonce = body === undefined ? undefined : JSON.parse(body)?.clientNonce;
        } catch {}
        if (typeof clientNonce !== "string" || !ADMIN_NONCE_PATTERN.test(clientNonce)) {
          send(response, 400, {
            ok: false,
            error: { code: "invalid-request", message: "clientNonce: 64 hex" },
          });
          return;
        }
        const nowMs = Date.now();
        forgetExpired(nowMs);
        if (challenges.size >= CHALLENGES_OUTSTANDING)
          challenges.delete(challenges.keys().next().value as string);
        const serverNonce = randomBytes(32).toString("hex");
        challenges.set(serverNonce, { clientNonce, expiresAtMs: nowMs + CHALLENGE_LIFETIME_MS });
        send(response, 200, {
          serverNonce,
          serverProof: adminChannelProof(token, "server", clientNonce, serverNonce),
        });
        return;
      }
      if (request.method !== "POST" || request.url !== ADMIN_CHANNEL_PATH) {
        send(response, 404, { ok: false, error: { code: "not-found", message: "POST /admin only" } });
        return;
      }
      const serverNonce = request.headers[ADMIN_NONCE_HEADER];
      const challenge = typeof serverNonce === "string" ? challenges.get(serverNonce) : undefined;
      if (typeof serverNonce === "string") challenges.delete(serverNonce);
      const body = await readBody(request);
      if (body === undefined) {
        send(response, 413, { ok: false, error: { code: "invalid-request", message: "body over 64 KiB" } });
        return;
      }
      if (
        challenge === undefined ||
        challenge.expiresAtMs <= Date.now() ||
        !isAdminChannelProof(
          request.headers[ADMIN_PROOF_HEADER],
          adminChannelProof(token, "client", serverNonce as string, challenge.clientNonce, body),
        )
      ) {
        logger.warn(
          { remote: request.socket.remoteAddress },
          "admin channel: request without a valid proof of the token refused",
        );
        send(response, 401, {
          ok: false,
          error: { code: "unauthorized", message: "no valid proof of the admin token" },
        });
        return;
      }
      const { clientNonce } = challenge;
      answer = (status, reply) =>
        send(response, status, reply, (text) =>
          adminChannelProof(token, "answer", clientNonce, serverNonce as string, text),
        );
      let parsed: ReturnType<typeof adminRequestSchema.safeParse>;
      try {
        parsed = adminRequestSchema.safeParse(JSON.parse(body));
      } catch {
        answer(400, { ok: false, error: { code: "invalid-request", message: "body is not JSON" } });
        return;
      }
      if (!parsed.success) {
        answer(400, {
          ok: false,
          error: { code: "invalid-request", message: parsed.error.message },
        });
        return;
      }
      try {
        const result = await executeAdminRequest(admin, parsed.data);
        logger.info({ verb: parsed.data.verb }, "admin channel: done");
        answer(200, { ok: true, result });
      } catch (error) {
        if (error instanceof AdminRefusal) {
          logger.info({ verb: parsed.data.verb, code: error.code }, "admin channel: refused");
          answer(400, { ok: false, error: { code: error.code, message: error.message } });
          return;
        }
        throw error;
      }
    } catch (error) {
      logger.error({ err: error }, "admin channel: request failed");
      if (!response.headersSent) {
        answer(500, { ok: false, error: { code: "internal", message: (error as Error).message } });
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
