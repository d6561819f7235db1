import type { AdjustableClock } from "@hub/clock";
import type { FastifyInstance, FastifyReply } from "fastify";
import { z } from "zod";
import type { Committee } from "../committee/create-committee.js";
import type { ChainClients } from "../create-chain-clients.js";
import type { FaultKnobs } from "../faults/fault-knobs.js";
import { registerFaultControlRoutes } from "../faults/register-fault-control-routes.js";
import type { Relayer } from "../relayer/create-relayer.js";
import type { SolanaChain } from "../solana/solana-chain.js";
import { checkControlRequest } from "./check-control-request.js";
import type { ChainTimeControl } from "./create-chain-time-control.js";

export interface ControlRoutesOptions {
  prefix: string;
  committee: Committee;
  relayer: Relayer;
  faults: FaultKnobs;
  clients: ChainClients;
  timeControl: ChainTimeControl;
  /** The Solana stand-in chain, whose time `increase-time` also moves (by its chain domain). */
  solanaChain: SolanaChain;
  /** The off-chain clock of the aggregator, the solvers, the external aggregator and the committee. */
  clock: AdjustableClock;
  /** What `POST /control/reset` puts the committee delay back to. */
  defaultCommitteeDelayMs: number;
}

const delayBody = z.object({ delayMs: z.number().int().min(0).max(86_400_000) }).strict();
const increaseTimeBody = z
  .object({
    seconds: z
      .number()
      .int()
      .min(1)
      .max(10 * 365 * 86_400),
  })
  .strict();
const advanceClockBody = z
  .object({
    ms: z
      .number()
      .int()
      .min(1)
      .max(10 * 365 * 86_400_000),
  })
  .strict();
const mineBody = z.object({ blocks: z.number().int().min(1).max(10_000).default(1) }).strict();

function refuse(reply: FastifyReply, status: number, error: string, message: string) {
  return reply.code(status).send({ error, message });
}

function parse<T>(schema: z.ZodType<T>, body: unknown, reply: FastifyReply): T | undefined {
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
function resolveChain(clients: ChainClients, chain: string): number | undefined {
  const id = Number(chain.startsWith("eip155:") ? chain.slice("eip155:".length) : chain);
  return Number.isInteger(id) && clients.find(id) ? id : undefined;
}

function clockView(clock: AdjustableClock) {
  const nowMs = clock.now();
  return { nowMs, now: new Date(nowMs).toISOString(), offsetMs: clock.offsetMs() };
}

/** The devnet's control API: fault knobs, committee delay, relayer pause, chain time, off-chain clock, reset. */
export function registerControlRoutes(app: FastifyInstance, options: ControlRoutesOptions): void {
  const { committee, relayer, faults, clients, timeControl, clock } = options;
  app.addHook("onRequest", async (request, reply) => {
    const path = request.url.split("?")[0] ?? "";
    if (path !== options.prefix && !path.startsWith(`${options.prefix}/`)) return;
    const single = (value: string | string[] | undefined) => (typeof value === "string" ? value : undefined);
    const refusal = checkControlRequest({
      method: request.method,
      host: single(request.headers.host),
      origin: single(request.headers.origin),
      contentType: single(request.headers["content-type"]),
      localPort: request.socket.localPort,
    });
    if (refusal) return refuse(reply, refusal.status, refusal.error, refusal.message);
  });
  registerFaultControlRoutes(app, { prefix: options.prefix, faults });
  app.register(
    async (scope) => {
      scope.get("/committee", async () => ({ delayMs: committee.delayMs(), fills: committee.fills() }));
      scope.put("/committee/delay", async (request, reply) => {
        const body = parse(delayBody, request.body, reply);
        if (!body) return reply;
        committee.setDelayMs(body.delayMs);
        return { delayMs: committee.delayMs() };
      });

      scope.get("/relayer", async () => ({ paused: relayer.isPaused(), deposits: relayer.deposits() }));
      scope.post("/relayer/pause", async () => {
        relayer.pause();
        return { paused: true };
      });
      scope.post("/relayer/resume", async () => {
        relayer.resume();
        return { paused: false };
      });

      scope.post<{ Params: { chain: string } }>("/chains/:chain/increase-time", async (request, reply) => {
        const { solanaChain } = options;
        if (request.params.chain === solanaChain.chainDomain) {
          const body = parse(increaseTimeBody, request.body, reply);
          if (!body) return reply;
          solanaChain.increaseTime(body.seconds);
          return {
            chainDomain: solanaChain.chainDomain,
            slot: solanaChain.slot(),
            timestamp: solanaChain.unixTimestamp(),
          };
        }
        const chainId = resolveChain(clients, request.params.chain);
        if (chainId === undefined) return refuse(reply, 404, "CHAIN_NOT_FOUND", request.params.chain);
        const body = parse(increaseTimeBody, request.body, reply);
        if (!body) return reply;
        return timeControl.increaseTime(chainId, body.seconds);
      });
      scope.post<{ Params: { chain: string } }>("/chains/:chain/mine", async (request, reply) => {
        const chainId = resolveChain(clients, request.params.chain);
        if (chainId === undefined) return refuse(reply, 404, "CHAIN_NOT_FOUND", request.params.chain);
        const body = parse(mineBody, request.body, reply);
        if (!body) return reply;
        return timeControl.mine(chainId, body.blocks);
      });

      scope.get("/clock", async () => clockView(clock));
      scope.post("/clock/advance", async (request, reply) => {
        const body = parse(advanceClockBody, request.body, reply);
        if (!body) return reply;
        clock.advance(body.ms);
        return clockView(clock);
      });

      scope.post("/reset", async () => {
        faults.reset();
        committee.setDelayMs(options.defaultCommitteeDelayMs);
        relayer.resume();
        return {
          committee: { delayMs: committee.delayMs() },
          relayer: { paused: relayer.isPaused() },
          faults: {},
        };
      });
    },
    { prefix: options.prefix },
  );
}
