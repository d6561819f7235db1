import { setTimeout as delay } from "node:timers/promises";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FaultKnobs } from "./fault-knobs.js";

/** The transport-level knobs a gate applies before a route runs. */
export interface GateKnobs {
  down?: boolean;
  hang?: boolean;
  latencyMs?: number;
  rateLimited?: boolean;
}

function resetConnection(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  reply.hijack();
  request.raw.socket.destroy();
  return reply;
}

/**
 * A fastify onRequest hook applying down, hang, 429 and latency knobs read fresh on every request.
 * `down` resets the connection so the caller sees a transport failure, as with a dead upstream.
 */
export function faultGateHook(faults: FaultKnobs, read: () => GateKnobs) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    if (read().down) return resetConnection(request, reply);
    if (read().hang) {
      const outcome = await faults.hold(() => read().hang === true);
      if (outcome === "closing" || read().down) return resetConnection(request, reply);
    }
    const latencyMs = read().latencyMs ?? 0;
    if (latencyMs > 0) await delay(latencyMs);
    if (read().rateLimited) {
      return reply
        .code(429)
        .header("retry-after", "1")
        .send({ error: "RATE_LIMITED", message: "too many requests", retryAfter: 1 });
    }
    return undefined;
  };
}
