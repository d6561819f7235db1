import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { ChainClients } from "../create-chain-clients.js";
import type { ChainRpcProxies } from "../rpc-proxy/create-chain-rpc-proxies.js";
import { rpcFaultsSchema } from "../rpc-proxy/create-rpc-fault-proxy.js";
import { parse, refuse, resolveChain } from "./control-replies.js";
import { type ChainReorgControl, ReorgTooDeepError } from "./create-chain-reorg.js";

const reorgBody = z
  .object({ depth: z.number().int().min(1).max(10_000), reinclude: z.boolean().default(false) })
  .strict();

/** `/chains/{chain}/reorg` and `/chains/{chain}/rpc-faults`, in the control API's scope. */
export function registerChainFaultRoutes(
  scope: FastifyInstance,
  options: { clients: ChainClients; reorgControl: ChainReorgControl; rpcProxies: ChainRpcProxies },
): void {
  const { clients, reorgControl, rpcProxies } = options;
  scope.post<{ Params: { chain: string } }>("/chains/:chain/reorg", async (request, reply) => {
    const chainId = resolveChain(clients, request.params.chain);
    if (chainId === undefined) return refuse(reply, 404, "CHAIN_NOT_FOUND", request.params.chain);
    const body = parse(reorgBody, request.body, reply);
    if (!body) return reply;
    try {
      return await reorgControl.reorg(chainId, body.depth, body.reinclude);
    } catch (error) {
      if (error instanceof ReorgTooDeepError)
        return refuse(reply, 400, "VALIDATION_ERROR", `depth: ${error.message}`);
      throw error;
    }
  });

  scope.get<{ Params: { chain: string } }>("/chains/:chain/rpc-faults", async (request, reply) => {
    const chainId = resolveChain(clients, request.params.chain);
    if (chainId === undefined) return refuse(reply, 404, "CHAIN_NOT_FOUND", request.params.chain);
    return rpcProxies.view(chainId);
  });
  scope.post<{ Params: { chain: string } }>("/chains/:chain/rpc-faults", async (request, reply) => {
    const chainId = resolveChain(clients, request.params.chain);
    if (chainId === undefined) return refuse(reply, 404, "CHAIN_NOT_FOUND", request.params.chain);
    const body = parse(rpcFaultsSchema, request.body, reply);
    if (!body) return reply;
    return rpcProxies.set(chainId, body);
  });
  scope.delete<{ Params: { chain: string } }>("/chains/:chain/rpc-faults", async (request, reply) => {
    const chainId = resolveChain(clients, request.params.chain);
    if (chainId === undefined) return refuse(reply, 404, "CHAIN_NOT_FOUND", request.params.chain);
    rpcProxies.clear(chainId);
    return rpcProxies.view(chainId);
  });
}
