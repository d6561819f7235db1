// The viem adapter: an EvmWallet from a viem account. viem is an optional peer: only this entry point
// (`@hub/sdk/viem`) imports it.
import {
  type Account,
  type Chain,
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  type PublicClient,
  type Transport,
  type WalletClient,
} from "viem";
import type { EvmWallet, TypedData } from "./wallet.js";

export interface ViemWalletOptions {
  /** A local account (privateKeyToAccount) or a JSON-RPC account of a browser wallet. */
  account: Account;
  /** Transport per EVM chain id: `http(rpcUrl)`, or `custom(window.ethereum)` in a page. */
  transport: (chainId: number) => Transport;
}

/** An EvmWallet that signs with the account and sends each transaction on the chain executionTx names. */
export function viemWallet({ account, transport }: ViemWalletOptions): EvmWallet {
  /** A browser wallet signs through a transport: the chain of the last transaction (the open flow sends first). */
  let lastChainId = 1;
  const chainOf = (chainId: number): Chain =>
    ({
      id: chainId,
      name: `eip155:${chainId}`,
      nativeCurrency: { name: "", symbol: "", decimals: 18 },
      rpcUrls: { default: { http: [] } },
    }) as Chain;
  const wallets = new Map<number, WalletClient>();
  const publics = new Map<number, PublicClient>();
  const walletOn = (chainId: number): WalletClient => {
    const client =
      wallets.get(chainId) ??
      createWalletClient({ account, chain: chainOf(chainId), transport: transport(chainId) });
    wallets.set(chainId, client);
    return client;
  };
  const publicOn = (chainId: number): PublicClient => {
    const client =
      publics.get(chainId) ?? createPublicClient({ chain: chainOf(chainId), transport: transport(chainId) });
    publics.set(chainId, client);
    return client;
  };
  return {
    address: account.address,
    async signTypedData(typed: TypedData) {
      // viem derives EIP712Domain from the domain itself and refuses it in types.
      const { EIP712Domain: _domain, ...types } = typed.types;
      const request = {
        domain: typed.domain,
        types,
        primaryType: typed.primaryType,
        message: typed.message,
      } as never;
      if (account.type === "local") return account.signTypedData(request);
      return walletOn(Number(typed.domain.chainId ?? lastChainId)).signTypedData({
        account,
        ...(request as object),
      } as never);
    },
    signMessage(message: string) {
      if (account.type === "local") return account.signMessage({ message });
      return walletOn(lastChainId).signMessage({ account, message });
    },
    sendTransaction(tx) {
      lastChainId = tx.chainId;
      return walletOn(tx.chainId).sendTransaction({
        account,
        chain: chainOf(tx.chainId),
        to: tx.to as Hex,
        data: tx.data as Hex,
        value: tx.value,
      });
    },
    async waitForTransaction(chainId, hash) {
      const receipt = await publicOn(chainId).waitForTransactionReceipt({ hash: hash as Hex });
      return receipt.status === "success";
    },
  };
}

/** viemWallet over one HTTP RPC URL per chain id. */
export function viemWalletOverHttp(account: Account, rpcUrls: Readonly<Record<number, string>>): EvmWallet {
  return viemWallet({
    account,
    transport: (chainId) => {
      const url = rpcUrls[chainId];
      if (!url) throw new TypeError(`no RPC URL for chain ${chainId}`);
      return http(url);
    },
  });
}
