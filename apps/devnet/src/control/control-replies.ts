import type { FastifyReply } from "fastify";
import type { z } from "zod";
import type { ChainClients } from "../create-chain-clients.js";

/** A control API refusal: `{ error, message }` with a real HTTP status. */
export function refuse(reply: FastifyReply, status: number, error: string, message: string) {
  return reply.code(status).send({ error, message });
}

export function parse<T>(schema: z.ZodType<T>, body: unknown, reply: FastifyReply): T | undefined {
  const parsed = schema.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  refuse(
    reply,
    400,
    "VALIDATION_ERROR",
    `${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}`,
  );
  return undefined;
}

/** `:chain` is a chain id ("31337") or a chain domain ("eip155:31337"). */
export function resolveChain(clients: ChainClients, chain: string): number | undefined {
  const id = Number(chain.startsWith("eip155:") ? chain.slice("eip155:".length) : chain);
  return Number.isInteger(id) && clients.find(id) ? id : undefined;
}
