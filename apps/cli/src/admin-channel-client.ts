import { randomBytes } from "node:crypto";
import { request } from "node:http";
import {
  ADMIN_CHALLENGE_PATH,
  ADMIN_CHANNEL_PATH,
  ADMIN_NONCE_HEADER,
  ADMIN_NONCE_PATTERN,
  ADMIN_PROOF_HEADER,
  type AdminChannelAnswer,
  type AdminChannelFile,
} from "./admin-channel-file.js";
import { adminChannelProof, isAdminChannelProof } from "./admin-channel-proof.js";
import type { AdminRequest } from "./admin-request.js";

/** The channel could not be reached at all, so the request was not executed. */
export class AdminChannelUnreachable extends Error {
  override readonly name = "AdminChannelUnreachable";
}

/** Whatever listens on the channel's port could not prove it holds the token; the request was never sent. */
export class AdminChannelNotAuthenticated extends Error {
  override readonly name = "AdminChannelNotAuthenticated";
}

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

interface RawAnswer {
  status: number;
  proof: string | string[] | undefined;
  text: string;
}

function post(
  port: number,
  path: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    let connected = false;
    const outgoing = request(
      {
        host: "127.0.0.1",
        port,
        method: "POST",
        path,
        headers: {
          ...headers,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
        },
        timeout: timeoutMs,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            proof: response.headers[ADMIN_PROOF_HEADER],
            text: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        response.on("error", reject);
      },
    );
    outgoing.on("socket", (socket) => socket.on("connect", () => (connected = true)));
    outgoing.on("timeout", () =>
      outgoing.destroy(new Error(`the admin channel did not answer within ${timeoutMs} ms`)),
    );
    outgoing.on("error", (error) => {
      // Only a connection that never opened proves the request was not executed.
      reject(connected ? error : new AdminChannelUnreachable(error.message));
    });
    outgoing.end(body);
  });
}

/** Sends a nonce and checks the channel's proof of the token over both nonces; returns the server's nonce. */
async function challengeChannel(channel: AdminChannelFile, clientNonce: string, timeoutMs: number) {
  let raw: RawAnswer;
  try {
    raw = await post(channel.port, ADMIN_CHALLENGE_PATH, {}, JSON.stringify({ clientNonce }), timeoutMs);
  } catch (error) {
    if (error instanceof AdminChannelUnreachable) throw error;
    throw new AdminChannelNotAuthenticated(
      `the admin channel on port ${channel.port}: ${(error as Error).message}`,
    );
  }
  let serverNonce: unknown;
  let serverProof: unknown;
  try {
    ({ serverNonce, serverProof } = JSON.parse(raw.text) as Record<string, unknown>);
  } catch {}
  if (
    raw.status !== 200 ||
    typeof serverNonce !== "string" ||
    !ADMIN_NONCE_PATTERN.test(serverNonce) ||
    !isAdminChannelProof(serverProof, adminChannelProof(channel.token, "server", clientNonce, serverNonce))
  ) {
    throw new AdminChannelNotAuthenticated(
      `whatever listens on port ${channel.port} could not prove it holds the admin token`,
    );
  }
  return serverNonce;
}

/**
 * Sends one request to a running service's admin channel. The token never leaves this process: the
 * channel proves it first (else AdminChannelNotAuthenticated, nothing sent), the request carries this
 * side's proof bound to its body, and an answer without the channel's proof over it is not believed.
 */
export async function sendAdminRequest(
  channel: AdminChannelFile,
  adminRequest: AdminRequest,
  timeoutMs = 10_000,
): Promise<{ status: number; answer: AdminChannelAnswer }> {
  const clientNonce = randomBytes(32).toString("hex");
  const serverNonce = await challengeChannel(channel, clientNonce, timeoutMs);
  const body = JSON.stringify(adminRequest);
  const raw = await post(
    channel.port,
    ADMIN_CHANNEL_PATH,
    {
      [ADMIN_NONCE_HEADER]: serverNonce,
      [ADMIN_PROOF_HEADER]: adminChannelProof(channel.token, "client", serverNonce, clientNonce, body),
    },
    body,
    timeoutMs,
  );
  if (
    !isAdminChannelProof(
      raw.proof,
      adminChannelProof(channel.token, "answer", clientNonce, serverNonce, raw.text),
    )
  ) {
    throw new Error(
      `the admin channel on port ${channel.port} answered without a valid proof (status ${raw.status})`,
    );
  }
  try {
    return { status: raw.status, answer: JSON.parse(raw.text) as AdminChannelAnswer };
  } catch {
    throw new Error(`the admin channel on port ${channel.port} answered something that is not JSON`);
  }
}
