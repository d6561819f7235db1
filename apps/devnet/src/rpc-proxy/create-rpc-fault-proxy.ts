import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { handleProxiedRequest } from "./handle-proxied-request.js";
import { createRpcFaultProxyState, type RpcFaultProxyStats } from "./rpc-fault-proxy-state.js";
import { type RpcFaults, rpcFaultsSchema } from "./rpc-faults.js";

export type { RpcFaultProxyStats } from "./rpc-fault-proxy-state.js";
export { type RpcFaults, rpcFaultsSchema } from "./rpc-faults.js";

export interface RpcFaultProxy {
  /** http://host:port/ of the proxy. */
  readonly url: string;
  faults(): RpcFaults;
  /** Replaces every knob (an empty object clears them). */
  setFaults(faults: RpcFaults): void;
  stats(): RpcFaultProxyStats;
  resetStats(): void;
  close(): Promise<void>;
}

/**
 * A JSON-RPC proxy on 127.0.0.1 in front of one node (anvil): forwards every call and injects the
 * faults set on it (429 with Retry-After, eth_getLogs range refusals, slow answers, resets, a node
 * down, a lagging node). The devnet's control API and the hub's tests put it in front of anvil.
 */
export async function createRpcFaultProxy(options: {
  /** The node's JSON-RPC URL. */
  target: string;
  port?: number;
  faults?: RpcFaults;
}): Promise<RpcFaultProxy> {
  const state = createRpcFaultProxyState(options.target, options.faults);
  const server: Server = createServer((request, response) => {
    handleProxiedRequest(state, request, response).catch((error: unknown) => {
      if (response.headersSent) return void response.destroy();
      response.writeHead(502, { "content-type": "text/plain" });
      response.end(`the node did not answer: ${(error as Error).message}`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    faults: () => ({ ...state.faults }),
    setFaults(next) {
      state.faults = rpcFaultsSchema.parse(next);
      state.rateLimited = 0;
      state.seen = 0;
    },
    stats: () => ({ calls: { ...state.stats.calls }, faults: { ...state.stats.faults } }),
    resetStats() {
      state.stats = { calls: {}, faults: {} };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
