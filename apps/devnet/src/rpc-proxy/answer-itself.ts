import { forwardCall, type JsonRpcCall, realHead } from "./forward-to-node.js";
import { countFault, type RpcFaultProxyState } from "./rpc-fault-proxy-state.js";

const toHex = (n: number) => `0x${n.toString(16)}`;

/** A call the proxy answers itself (a refusal, a lagging node's view), or undefined to forward it. */
export async function answerItself(
  state: RpcFaultProxyState,
  call: JsonRpcCall,
): Promise<unknown | undefined> {
  const { target } = state;
  if (call.method === "eth_getLogs" && state.faults.maxLogRange !== undefined) {
    const filter = (call.params?.[0] ?? {}) as { fromBlock?: string; toBlock?: string };
    const from = filter.fromBlock?.startsWith("0x") ? Number(filter.fromBlock) : undefined;
    const to = filter.toBlock?.startsWith("0x") ? Number(filter.toBlock) : await realHead(target);
    if (from !== undefined && to - from + 1 > state.faults.maxLogRange) {
      countFault(state, "range");
      const style = state.faults.rangeStyle ?? "range";
      const error =
        style === "infura"
          ? { code: -32005, message: "query returned more than 10000 results" }
          : style === "alchemy"
            ? {
                code: -32602,
                message: `Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range and no limit on the response size, or you can request any block range with a cap of 10K logs in the response. Based on your parameters and the response size limit, this block range should work: [${toHex(from)}, ${toHex(from + state.faults.maxLogRange - 1)}]`,
              }
            : {
                code: -32602,
                message: `block range too large: exceed maximum block range: ${state.faults.maxLogRange}`,
              };
      return { jsonrpc: "2.0", id: call.id ?? null, error };
    }
  }
  if (state.faults.lagBlocks !== undefined) {
    if (call.method === "eth_blockNumber") {
      return {
        jsonrpc: "2.0",
        id: call.id ?? null,
        result: toHex(Math.max(0, (await realHead(target)) - state.faults.lagBlocks)),
      };
    }
    if (call.method === "eth_getLogs") {
      const head = (await realHead(target)) - state.faults.lagBlocks;
      const answer = (await forwardCall(target, call)) as { result?: { blockNumber: string }[] };
      if (Array.isArray(answer.result)) {
        answer.result = answer.result.filter((log) => Number(log.blockNumber) <= head);
      }
      return answer;
    }
  }
  return undefined;
}
