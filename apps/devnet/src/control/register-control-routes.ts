import type { AdjustableClock } from "@hub/clock";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { Committee } from "../committee/create-committee.js";
import type { ChainClients } from "../create-chain-clients.js";
import type { FaultKnobs } from "../faults/fault-knobs.js";
import { registerFaultControlRoutes } from "../faults/register-fault-control-routes.js";
import type { Relayer } from "../relayer/create-relayer.js";
import type { ChainRpcProxies } from "../rpc-proxy/create-chain-rpc-proxies.js";
import type { SolanaChain } from "../solana/solana-chain.js";
import { checkControlRequest } from "./check-control-request.js";
import { parse, refuse, resolveChain } from "./control-replies.js";
import type { ChainReorgControl } from "./create-chain-reorg.js";
import type { ChainTimeControl } from "./create-chain-time-control.js";
import { registerChainFaultRoutes } from "./register-chain-fault-routes.js";

export interface ControlRoutesOptions {
  prefix: string;
  committee: Committee;
  relayer: Relayer;
  faults: FaultKnobs;
  clients: ChainClients;
  timeControl: ChainTimeControl;
  reorgControl: ChainReorgControl;
  /** The fault-injecting JSON-RPC proxy in front of each EVM chain. */
  rpcProxies: ChainRpcProxies;
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

function clockView(clock: AdjustableClock) {
  const nowMs = clock.now();
  return { nowMs, now: new Date(nowMs).toISOString(), offsetMs: clock.offsetMs() };
}

/**
 * The devnet's control API: fault knobs, committee delay, relayer pause, chain time, reorganisations,
 * RPC faults, off-chain clock, reset.
 */
export function registerControlRoutes(app: FastifyInstance, options: ControlRoutesOptions): void {
  const { faults, clients, reorgControl, rpcProxies } = options;
  refuseForeignControlRequests(app, options.prefix);
  registerFaultControlRoutes(app, { prefix: options.prefix, faults, rpc: rpcProxies });
  app.register(
    async (scope) => {
      registerCommitteeAndRelayerRoutes(scope, options);
      registerChainTimeRoutes(scope, options);
      registerChainFaultRoutes(scope, { clients, reorgControl, rpcProxies });
      registerClockAndResetRoutes(scope, options);
    },
    { prefix: options.prefix },
  );
}

/** Control requests must come from this host's own pages or tools (checkControlRequest says which). */
function refuseForeignControlRequests(app: FastifyInstance, prefix: string): void {
  app.addHook("onRequest", async (request, reply) => {
    const path = request.url.split("?")[0] ?? "";
    if (path !== prefix && !path.startsWith(`${prefix}/`)) return;
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
}

function registerCommitteeAndRelayerRoutes(scope: FastifyInstance, options: ControlRoutesOptions): void {
  const { committee, relayer } = options;
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
}

function registerChainTimeRoutes(scope: FastifyInstance, options: ControlRoutesOptions): void {
  const { clients, timeControl } = options;
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
}

function registerClockAndResetRoutes(scope: FastifyInstance, options: ControlRoutesOptions): void {
  const { committee, relayer, faults, rpcProxies, clock } = options;
  scope.get("/clock", async () => clockView(clock));
  scope.post("/clock/advance", async (request, reply) => {
    const body = parse(advanceClockBody, request.body, reply);
    if (!body) return reply;
    clock.advance(body.ms);
    return clockView(clock);
  });

  scope.post("/reset", async () => {
    faults.reset();
    rpcProxies.clear();
    committee.setDelayMs(options.defaultCommitteeDelayMs);
    relayer.resume();
    return {
      committee: { delayMs: committee.delayMs() },
      relayer: { paused: relayer.isPaused() },
      faults: {},
    };
  });
}
