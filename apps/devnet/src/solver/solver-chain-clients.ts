import type { DevnetAccount, DevnetChain, DevnetManifest } from "@hub/chain";
import {
  type Account,
  type Chain,
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  type PublicClient,
  type Transport,
  type WalletClient,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";

export interface SolverChainClient {
  chain: DevnetChain;
  publicClient: PublicClient<Transport, Chain>;
  walletClient: WalletClient<Transport, Chain, Account>;
}

/** One read client and one wallet client (the solver's own key) per devnet chain, keyed by chain id. */
export function createSolverChainClients(
  manifest: DevnetManifest,
  account: DevnetAccount,
): Map<number, SolverChainClient> {
  const signer = privateKeyToAccount(account.privateKey);
  const clients = new Map<number, SolverChainClient>();
  for (const chain of manifest.chains) {
    const viemChain = defineChain({
      id: chain.chainId,
      name: chain.chainDomain,
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      rpcUrls: { default: { http: [chain.rpcUrl] } },
    });
    const transport = http(chain.rpcUrl, { batch: false, retryCount: 0 });
    clients.set(chain.chainId, {
      chain,
      publicClient: createPublicClient({ chain: viemChain, transport, pollingInterval: 100 }),
      walletClient: createWalletClient({ chain: viemChain, transport, account: signer }),
    });
  }
  return clients;
}
