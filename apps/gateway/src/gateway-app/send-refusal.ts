import { type ErrorCode, errorCatalogue, errorEnvelope } from "@hub/contract";
import type { FastifyReply } from "fastify";
import { JSON_CONTENT_TYPE } from "./json-content-type.js";

/** Answers a call Fastify serves with the envelope of a refusal. */
export function sendRefusal(reply: FastifyReply, code: ErrorCode): void {
  reply
    .code(errorCatalogue[code].status)
    .header("x-request-id", reply.request.id)
    .header("content-type", JSON_CONTENT_TYPE)
    .header("cache-control", "no-store")
    .header("x-content-type-options", "nosniff")
    .send(JSON.stringify(errorEnvelope(code, reply.request.id)));
}
