import type { DevnetAccount, DevnetChain, DevnetManifest } from "@hub/chain";
import type { Account, Chain, Hex, PublicClient, TransactionReceipt, Transport, WalletClient } from "viem";
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

/** The transaction's receipt, or undefined while it is not mined (or the read failed). */
export async function transactionReceipt(
  chain: SolverChainClient,
  hash: Hex,
): Promise<TransactionReceipt | undefined> {
  try {
    return await chain.publicClient.getTransactionReceipt({ hash });
  } catch {
    return undefined;
  }
}
