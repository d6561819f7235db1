// The viem adapters: an EvmWallet from a viem WalletClient (a browser wallet through EIP-1193, wagmi's
// useWalletClient) or from a viem Account and a transport per chain (a server key). viem is an optional
// peer: only this entry point (`@intent-hub/sdk/viem`) imports it.
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
import { addChain, getChainId, switchChain, waitForTransactionReceipt } from "viem/actions";
import { HubError } from "./errors.js";
import type { EvmWallet, TypedData } from "./wallet.js";

export interface ViemWalletOptions {
  /** A local account (privateKeyToAccount) or a JSON-RPC account of a browser wallet. */
  account: Account;
  /** Transport per EVM chain id: `http(rpcUrl)`, or `custom(window.ethereum)` in a page. */
  transport: (chainId: number) => Transport;
}

export interface WalletClientOptions {
  /**
   * Chains the wallet may be asked to add (`wallet_addEthereumChain`) when it does not know one a step is
   * on (it answers 4902 to the switch): viem `Chain` objects with their RPC URLs. Without the chain here,
   * an unknown chain is `ESDK_WRONG_CHAIN`.
   */
  chains?: readonly Chain[];
  /**
   * What to do when a signature or a transaction is on another chain than the wallet's: "switch" (the
   * default) asks the wallet to switch (`wallet_switchEthereumChain`, the user confirms in the wallet);
   * "refuse" throws `ESDK_WRONG_CHAIN` (params [wanted chain id, wallet's chain id]) before anything is
   * signed, so the page can ask the user and call submit again; a function is called to switch itself
   * (wagmi's `switchChainAsync`), after which the wallet must be on the chain.
   */
  onChainMismatch?: "switch" | "refuse" | ((chainId: number) => Promise<unknown>);
  /**
   * Where to read receipts, per chain id: `http(rpcUrl)`. By default through the wallet itself, which is
   * on the transaction's chain at that moment.
   */
  readTransport?: (chainId: number) => Transport;
}

/** A minimal viem Chain for an id, for the calls that only need the id to be right. */
function chainOf(chainId: number): Chain {
  return {
    id: chainId,
    name: `eip155:${chainId}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [] } },
  } as Chain;
}

/** True when the error (or its cause) is the wallet's 4902: it does not know the chain. */
function isUnknownChain(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === "object" && depth < 8; depth++) {
    if ((e as { code?: unknown }).code === 4902) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** The EIP-712 request viem takes: it derives EIP712Domain from the domain itself and refuses it in types. */
function typedRequest(typed: TypedData) {
  const { EIP712Domain: _domain, ...types } = typed.types;
  return { domain: typed.domain, types, primaryType: typed.primaryType, message: typed.message } as never;
}

/** Brings the wallet to the chain (see `onChainMismatch`), adding it when the wallet answers 4902 and `chains` has it. */
async function ensureChain(
  walletClient: WalletClient,
  chainId: number,
  chains: readonly Chain[],
  onChainMismatch: NonNullable<WalletClientOptions["onChainMismatch"]>,
): Promise<void> {
  const current = await getChainId(walletClient);
  if (current === chainId) return;
  if (onChainMismatch === "refuse") {
    throw new HubError({
      code: "ESDK_WRONG_CHAIN",
      status: 0,
      message: `the wallet is on chain ${current}, the step is on chain ${chainId}: switch the wallet`,
      params: [String(chainId), String(current)],
    });
  }
  if (typeof onChainMismatch === "function") {
    await onChainMismatch(chainId);
  } else {
    try {
      await switchChain(walletClient, { id: chainId });
    } catch (error) {
      const chain = chains.find((c) => c.id === chainId);
      if (!isUnknownChain(error)) throw error;
      if (!chain) {
        throw new HubError({
          code: "ESDK_WRONG_CHAIN",
          status: 0,
          message: `the wallet does not know chain ${chainId} and no chain definition was given to add it`,
          params: [String(chainId), String(current)],
          cause: error,
        });
      }
      await addChain(walletClient, { chain });
      // Most wallets switch on add; the ones that do not are asked again.
      if ((await getChainId(walletClient)) !== chainId) await switchChain(walletClient, { id: chainId });
    }
  }
  const now = await getChainId(walletClient);
  if (now !== chainId) {
    throw new HubError({
      code: "ESDK_WRONG_CHAIN",
      status: 0,
      message: `the wallet stayed on chain ${now}, the step is on chain ${chainId}`,
      params: [String(chainId), String(now)],
    });
  }
}

/**
 * An EvmWallet over a viem WalletClient that has an account: `createWalletClient({ account, transport:
 * custom(window.ethereum) })`, or wagmi's `useWalletClient().data`. Before each signature whose domain
 * names a chain and before each transaction, it brings the wallet to that chain (see
 * `onChainMismatch`), adding the chain when the wallet answers 4902 and `chains` has it. A refusal in
 * the wallet (4001) surfaces from `submit` as a `WalletRejectedError`.
 */
export function walletClientWallet(walletClient: WalletClient, options: WalletClientOptions = {}): EvmWallet {
  const account = walletClient.account;
  if (!account) throw new TypeError("the WalletClient has no account: connect the wallet first");
  const { chains = [], onChainMismatch = "switch", readTransport } = options;
  const readers = new Map<number, PublicClient>();

  return {
    address: account.address,
    async signTypedData(typed) {
      const chainId = typed.domain.chainId;
      if (chainId !== undefined) await ensureChain(walletClient, Number(chainId), chains, onChainMismatch);
      return walletClient.signTypedData({ account, ...(typedRequest(typed) as object) } as never);
    },
    signMessage(message) {
      // personal_sign carries no chain: signed on whichever chain the wallet is on.
      return walletClient.signMessage({ account, message });
    },
    async sendTransaction(tx) {
      await ensureChain(walletClient, tx.chainId, chains, onChainMismatch);
      return walletClient.sendTransaction({
        account,
        chain: chainOf(tx.chainId),
        to: tx.to as Hex,
        data: tx.data as Hex,
        value: tx.value,
      });
    },
    async waitForTransaction(chainId, hash) {
      let reader: PublicClient | WalletClient = walletClient;
      if (readTransport) {
        reader =
          readers.get(chainId) ??
          createPublicClient({
            chain: chainOf(chainId),
            transport: readTransport(chainId),
            pollingInterval: 500,
          });
        readers.set(chainId, reader as PublicClient);
      }
      const receipt = await waitForTransactionReceipt(reader, { hash: hash as Hex, pollingInterval: 500 });
      return receipt.status === "success";
    },
  };
}

/**
 * An EvmWallet from a viem Account and a transport per chain (a server-held key: `privateKeyToAccount`),
 * or a viem WalletClient (a browser wallet; same as `walletClientWallet(client, options)`).
 */
export function viemWallet(options: ViemWalletOptions): EvmWallet;
export function viemWallet(walletClient: WalletClient, options?: WalletClientOptions): EvmWallet;
export function viemWallet(
  source: ViemWalletOptions | WalletClient,
  walletOptions?: WalletClientOptions,
): EvmWallet {
  if (!("transport" in source && typeof source.transport === "function")) {
    return walletClientWallet(source as WalletClient, walletOptions);
  }
  const { account, transport } = source as ViemWalletOptions;
  /** A JSON-RPC account signs through a transport: the chain of the last transaction (the open flow sends first). */
  let lastChainId = 1;
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
      const request = typedRequest(typed);
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
