import type { IncomingMessage, ServerResponse } from "node:http";
import { type Admin, AdminRefusal } from "@hub/admin";
import type { Logger } from "pino";
import type { AdminChallenges } from "./admin-challenges.js";
import {
  ADMIN_CHALLENGE_PATH,
  ADMIN_CHANNEL_PATH,
  ADMIN_NONCE_HEADER,
  ADMIN_NONCE_PATTERN,
  ADMIN_PROOF_HEADER,
  type AdminChallengeAnswer,
  type AdminChannelAnswer,
} from "./admin-channel-file.js";
import { adminChannelProof, isAdminChannelProof } from "./admin-channel-proof.js";
import { adminRequestSchema } from "./admin-request.js";
import { executeAdminRequest } from "./execute-admin-request.js";

const BODY_LIMIT_BYTES = 64 * 1024;

/** What the admin channel's requests are answered with: the admin, the token and the challenges out. */
export interface AdminChannelContext {
  admin: Admin;
  token: string;
  challenges: AdminChallenges;
  logger: Pick<Logger, "info" | "warn" | "error">;
}

type Answer = (status: number, reply: AdminChannelAnswer) => void;

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

/** The admin channel's HTTP handler: POST /admin/challenge, then POST /admin with proofs both ways. */
export function handleAdminChannelRequest(channel: AdminChannelContext) {
  return async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    let answer: Answer = (status, reply) => send(response, status, reply);
    try {
      if (request.method === "POST" && request.url === ADMIN_CHALLENGE_PATH) {
        await answerChallenge(channel, request, response);
        return;
      }
      if (request.method !== "POST" || request.url !== ADMIN_CHANNEL_PATH) {
        send(response, 404, { ok: false, error: { code: "not-found", message: "POST /admin only" } });
        return;
      }
      const proven = await readProvenRequest(channel, request, response);
      if (proven === undefined) return;
      answer = (status, reply) => send(response, status, reply, proven.proveAnswer);
      await runAdminRequest(channel, proven.body, answer);
    } catch (error) {
      channel.logger.error({ err: error }, "admin channel: request failed");
      if (!response.headersSent) {
        answer(500, { ok: false, error: { code: "internal", message: (error as Error).message } });
      }
    }
  };
}

async function answerChallenge(
  { token, challenges }: AdminChannelContext,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
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
  const serverNonce = challenges.issue(clientNonce);
  send(response, 200, {
    serverNonce,
    serverProof: adminChannelProof(token, "server", clientNonce, serverNonce),
  });
}

/** The request's body once its proof of the token holds, with how to prove the answer; else answers it. */
async function readProvenRequest(
  { token, challenges, logger }: AdminChannelContext,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<{ body: string; proveAnswer: (text: string) => string } | undefined> {
  const serverNonce = request.headers[ADMIN_NONCE_HEADER];
  const challenge = challenges.take(serverNonce);
  const body = await readBody(request);
  if (body === undefined) {
    send(response, 413, { ok: false, error: { code: "invalid-request", message: "body over 64 KiB" } });
    return undefined;
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
    return undefined;
  }
  const { clientNonce } = challenge;
  return {
    body,
    proveAnswer: (text) => adminChannelProof(token, "answer", clientNonce, serverNonce as string, text),
  };
}

async function runAdminRequest({ admin, logger }: AdminChannelContext, body: string, answer: Answer) {
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
}
