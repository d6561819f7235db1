import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A JSON-RPC proxy in front of one anvil that plays a lagging or load-balanced node: while `lagHead` is
 * set, eth_getLogs over a range reaching past it answers only the logs up to lagHead (an empty list for
 * the blocks it has not seen), and eth_getLogs by the hash of a block past it fails as an unknown block.
 * Every other call goes through unchanged. The full fault-injecting proxy is another helper's; this one
 * does only this case.
 */
export interface LaggingNodeProxy {
  url: string;
  /** Blocks above this are unseen by eth_getLogs; undefined: no lag. */
  lagHead: number | undefined;
  stop(): Promise<void>;
}

interface RpcRequest {
  jsonrpc: "2.0";
  id: number | string;
  method: string;
  params?: unknown[];
}

function body(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

export async function startLaggingNodeProxy(upstream: string): Promise<LaggingNodeProxy> {
  const forward = async (call: RpcRequest): Promise<{ result?: unknown; error?: unknown }> => {
    const response = await fetch(upstream, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(call),
    });
    return (await response.json()) as { result?: unknown; error?: unknown };
  };
  const proxy: LaggingNodeProxy = { url: "", lagHead: undefined, stop: async () => {} };

  async function answer(call: RpcRequest): Promise<unknown> {
    const lagHead = proxy.lagHead;
    if (call.method !== "eth_getLogs" || lagHead === undefined) {
      return { jsonrpc: "2.0", id: call.id, ...(await forward(call)) };
    }
    const filter = (call.params?.[0] ?? {}) as { blockHash?: string; toBlock?: string };
    if (filter.blockHash) {
      const block = (await forward({
        jsonrpc: "2.0",
        id: 0,
        method: "eth_getBlockByHash",
        params: [filter.blockHash, false],
      })) as { result?: { number: string } | null };
      if (!block.result || Number(block.result.number) > lagHead) {
        return { jsonrpc: "2.0", id: call.id, error: { code: -32000, message: "unknown block" } };
      }
      return { jsonrpc: "2.0", id: call.id, ...(await forward(call)) };
    }
    // The unseen blocks answer nothing: only the logs up to lagHead come back.
    const toBlock = filter.toBlock?.startsWith("0x") ? Number(filter.toBlock) : lagHead;
    const clipped = { ...filter, toBlock: `0x${Math.min(toBlock, lagHead).toString(16)}` };
    const fromBlock = (filter as { fromBlock?: string }).fromBlock;
    if (fromBlock?.startsWith("0x") && Number(fromBlock) > lagHead) {
      return { jsonrpc: "2.0", id: call.id, result: [] };
    }
    return { jsonrpc: "2.0", id: call.id, ...(await forward({ ...call, params: [clipped] })) };
  }

  const server: Server = createServer((request, response) => {
    body(request)
      .then(async (text) => {
        const parsed = JSON.parse(text) as RpcRequest | RpcRequest[];
        const result = Array.isArray(parsed) ? await Promise.all(parsed.map(answer)) : await answer(parsed);
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify(result));
      })
      .catch((error: unknown) => {
        response.writeHead(500);
        response.end(String(error));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.stop = () => new Promise((resolve) => server.close(() => resolve()));
  return proxy;
}
