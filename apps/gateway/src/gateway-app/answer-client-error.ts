import type { Socket } from "node:net";
import { endWithEnvelope } from "./end-with-envelope.js";

/** A request Node could not even parse (bad framing, oversized headers): the envelope, then close. */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable || (error.code === "ECONNRESET" && !socket.writable)) {
    socket.destroy();
    return;
  }
  const rawPacket = (error as { rawPacket?: Buffer }).rawPacket;
  const head = Buffer.isBuffer(rawPacket) && rawPacket.subarray(0, 5).toString("latin1") === "HEAD ";
  endWithEnvelope(socket, "EPX0006", head, "Request could not be read.");
}
