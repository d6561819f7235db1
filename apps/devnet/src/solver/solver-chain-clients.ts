import type { DevnetAccount, DevnetChain, DevnetManifest } from "@hub/chain";
import type { Account, Chain, PublicClient, Transport, WalletClient } from "viem";
import { createChainClients } from "../create-chain-clients.js";

export interface SolverChainClient {
  chain: DevnetChain;
  publicClient: PublicClient<Transport, Chain>;
  walletClient: WalletClient<Transport, Chain, Account>;
}

/**
 * One read client and one wallet client (the solver's own key) per devnet chain, keyed by chain id.
 * Each wallet is made on first use: deriving its key's public point is secp256k1 work a start need not wait for.
 */
export function createSolverChainClients(
  manifest: DevnetManifest,
  account: DevnetAccount,
): Map<number, SolverChainClient> {
  return new Map(
    createChainClients(manifest)
      .all()
      .map((client): [number, SolverChainClient] => [
        client.chain.chainId,
        {
          chain: client.chain,
          publicClient: client.publicClient,
          get walletClient() {
            return client.wallet(account);
          },
        },
      ]),
  );
}
