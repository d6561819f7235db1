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

export interface ChainClient {
  chain: DevnetChain;
  viemChain: Chain;
  publicClient: PublicClient<Transport, Chain>;
  /** A wallet that signs locally with the account's key and sends through the chain's RPC. */
  wallet(account: DevnetAccount): WalletClient<Transport, Chain, Account>;
}

export interface ChainClients {
  all(): ChainClient[];
  /** Throws for a chain the manifest does not hold. */
  get(chainId: number): ChainClient;
  find(chainId: number): ChainClient | undefined;
}

/** viem clients for every devnet chain, built once and shared by the devnet's services. */
export function createChainClients(manifest: DevnetManifest): ChainClients {
  const byId = new Map<number, ChainClient>();
  for (const chain of manifest.chains) {
    const viemChain = defineChain({
      id: chain.chainId,
      name: chain.chainDomain,
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      rpcUrls: { default: { http: [chain.rpcUrl] } },
    });
    const transport = http(chain.rpcUrl, { batch: false, retryCount: 0 });
    const publicClient = createPublicClient({ chain: viemChain, transport, pollingInterval: 100 });
    const wallets = new Map<string, WalletClient<Transport, Chain, Account>>();
    byId.set(chain.chainId, {
      chain,
      viemChain,
      publicClient,
      wallet(account) {
        let wallet = wallets.get(account.address);
        if (!wallet) {
          wallet = createWalletClient({
            account: privateKeyToAccount(account.privateKey),
            chain: viemChain,
            transport,
          });
          wallets.set(account.address, wallet);
        }
        return wallet;
      },
    });
  }
  return {
    all: () => [...byId.values()],
    get(chainId) {
      const client = byId.get(chainId);
      if (!client) throw new Error(`chain ${chainId} is not a devnet chain`);
      return client;
    },
    find: (chainId) => byId.get(chainId),
  };
}
