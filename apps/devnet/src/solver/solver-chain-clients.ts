import type { DevnetAccount, DevnetChain, DevnetManifest } from "@hub/chain";
import type { Account, Chain, PublicClient, Transport, WalletClient } from "viem";
import { createChainClients } from "../create-chain-clients.js";

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
  return new Map(
    createChainClients(manifest)
      .all()
      .map((client) => [
        client.chain.chainId,
        { chain: client.chain, publicClient: client.publicClient, walletClient: client.wallet(account) },
      ]),
  );
}
