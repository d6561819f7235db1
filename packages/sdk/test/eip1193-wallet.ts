import type { EIP1193Parameters, EIP1193RequestFn } from "viem";

/** The first anvil dev account (unlocked on every anvil: it sends transactions through eth_sendTransaction). */
export const DEV_ADDRESS = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

class ProviderError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A browser wallet as a page sees it, as an EIP-1193 provider object backed by the devnet: it is on one
 * chain at a time, knows the chains it was given (others it answers 4902 to, until added by
 * wallet_addEthereumChain), and forwards every call to that chain's anvil, whose first account is
 * unlocked, so signatures and transactions are the node's own. `reject` makes the next call of a method
 * answer 4001, as a user pressing "Reject" does. It records every request.
 */
export function devnetEip1193Provider(options: {
  rpcUrls: Record<number, string>;
  known: number[];
  chainId: number;
}) {
  const known = new Map<number, string>(options.known.map((id) => [id, options.rpcUrls[id]!]));
  const state = { chainId: options.chainId, reject: new Set<string>(), requests: [] as string[] };
  let nextId = 1;

  async function forward(method: string, params: unknown): Promise<unknown> {
    const response = await fetch(known.get(state.chainId)!, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params: params ?? [] }),
    });
    const answer = (await response.json()) as { result?: unknown; error?: { code: number; message: string } };
    if (answer.error) throw new ProviderError(answer.error.code, answer.error.message);
    return answer.result;
  }

  const request = (async ({ method, params }: EIP1193Parameters) => {
    state.requests.push(method);
    if (state.reject.delete(method)) throw new ProviderError(4001, "User rejected the request.");
    switch (method) {
      case "eth_chainId":
        return `0x${state.chainId.toString(16)}`;
      case "eth_accounts":
      case "eth_requestAccounts":
        return [DEV_ADDRESS];
      case "wallet_switchEthereumChain": {
        const id = Number.parseInt((params as [{ chainId: string }])[0].chainId, 16);
        if (!known.has(id)) throw new ProviderError(4902, `Unrecognized chain ID ${id}.`);
        state.chainId = id;
        return null;
      }
      case "wallet_addEthereumChain": {
        const [chain] = params as [{ chainId: string; rpcUrls: string[] }];
        const id = Number.parseInt(chain.chainId, 16);
        known.set(id, chain.rpcUrls[0]!);
        // As MetaMask does: adding a chain switches to it.
        state.chainId = id;
        return null;
      }
      case "eth_signTypedData_v4": {
        // As MetaMask does: a domain on another chain than the wallet's is refused.
        const [, json] = params as [string, string];
        const domainChain = JSON.parse(json).domain?.chainId;
        if (domainChain !== undefined && Number(domainChain) !== state.chainId) {
          throw new ProviderError(-32602, `Provided chainId "${domainChain}" must match the active chainId`);
        }
        return forward(method, params);
      }
      default:
        return forward(method, params);
    }
  }) as EIP1193RequestFn;

  return { request, state };
}
