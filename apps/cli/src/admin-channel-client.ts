import { request } from "node:http";
import {
  ADMIN_CHANNEL_PATH,
  ADMIN_TOKEN_HEADER,
  type AdminChannelAnswer,
  type AdminChannelFile,
} from "./admin-channel-file.js";
import type { AdminRequest } from "./admin-request.js";

/** The channel could not be reached at all, so the request was not executed. */
export class AdminChannelUnreachable extends Error {
  override readonly name = "AdminChannelUnreachable";
}

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Sends one request to a running service's admin channel. */
export function sendAdminRequest(
  channel: AdminChannelFile,
  adminRequest: AdminRequest,
  timeoutMs = 10_000,
): Promise<{ status: number; answer: AdminChannelAnswer }> {
  const body = JSON.stringify(adminRequest);
  return new Promise((resolve, reject) => {
    let connected = false;
    const outgoing = request(
      {
        host: "127.0.0.1",
        port: channel.port,
        method: "POST",
        path: ADMIN_CHANNEL_PATH,
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          [ADMIN_TOKEN_HEADER]: channel.token,
        },
        timeout: timeoutMs,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          try {
            resolve({
              status: response.statusCode ?? 0,
              answer: JSON.parse(Buffer.concat(chunks).toString("utf8")) as AdminChannelAnswer,
            });
          } catch {
            reject(
              new Error(`the admin channel on port ${channel.port} answered something that is not JSON`),
            );
          }
        });
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
