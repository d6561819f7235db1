// The Wallet Standard adapter: a SolanaWallet from a browser Solana wallet (Phantom, Solflare, Backpack:
// any wallet registered through @wallet-standard/app's getWallets()). No dependency: the shapes below are
// the standard's own (`@wallet-standard/base`, `@solana/wallet-standard-features`), written out
// structurally, so this entry point (`@intent-hub/sdk/wallet-standard`) adds nothing to install.
import { solanaPublicKeyBytes } from "./solana-envelope.js";
import type { SolanaWallet } from "./solana-wallet.js";

/** A Wallet Standard account (`@wallet-standard/base` WalletAccount). */
export interface StandardWalletAccount {
  readonly address: string;
  readonly publicKey: Uint8Array;
  readonly chains: readonly string[];
  readonly features: readonly string[];
  readonly label?: string;
}

/** `solana:signTransaction` 1.0.0: signs serialized transactions (wire format), returns them signed. */
export interface SolanaSignTransactionFeature {
  readonly version: string;
  readonly supportedTransactionVersions: readonly ("legacy" | 0)[];
  signTransaction(
    ...inputs: {
      account: StandardWalletAccount;
      transaction: Uint8Array;
      chain?: string;
      options?: Record<string, unknown>;
    }[]
  ): Promise<readonly { signedTransaction: Uint8Array }[]>;
}

/** `solana:signMessage` 1.0.0: signs bytes verbatim with Ed25519. */
export interface SolanaSignMessageFeature {
  readonly version: string;
  signMessage(
    ...inputs: { account: StandardWalletAccount; message: Uint8Array }[]
  ): Promise<readonly { signedMessage: Uint8Array; signature: Uint8Array; signatureType?: "ed25519" }[]>;
}

/** `standard:connect` 1.0.0. */
export interface StandardConnectFeature {
  readonly version: string;
  connect(input?: { silent?: boolean }): Promise<{ accounts: readonly StandardWalletAccount[] }>;
}

/** A Wallet Standard wallet (`@wallet-standard/base` Wallet), as far as this adapter reads it. */
export interface StandardWallet {
  readonly version?: string;
  readonly name: string;
  readonly chains?: readonly string[];
  readonly accounts: readonly StandardWalletAccount[];
  readonly features: Readonly<Record<string, unknown>> & {
    "standard:connect"?: StandardConnectFeature;
    "solana:signTransaction"?: SolanaSignTransactionFeature;
    "solana:signMessage"?: SolanaSignMessageFeature;
  };
}

export interface WalletStandardOptions {
  /** The account to sign with (its address): by default the wallet's first account, after connecting if it has none. */
  address?: string;
  /** The Wallet Standard chain passed to signTransaction, e.g. "solana:devnet" (optional in the standard). */
  chain?: string;
  /**
   * Which feature signs: "transaction" (`solana:signTransaction`: the wallet shows the transaction the
   * solver compiled), "message" (`solana:signMessage` over the message bytes), or "auto" (the default):
   * the transaction feature when the wallet has it, else the message feature.
   */
  prefer?: "auto" | "transaction" | "message";
}

/** A compact-u16 (shortvec) at offset: its value and the offset after it. */
function readShortVec(bytes: Uint8Array, offset: number): [number, number] {
  let value = 0;
  for (let i = 0; i < 3; i++) {
    const byte = bytes[offset + i];
    if (byte === undefined) throw new TypeError("truncated compact-u16");
    value |= (byte & 0x7f) << (7 * i);
    if ((byte & 0x80) === 0) return [value, offset + i + 1];
  }
  throw new TypeError("compact-u16 longer than 3 bytes");
}

function shortVec(value: number): number[] {
  const out: number[] = [];
  let rest = value;
  for (;;) {
    const byte = rest & 0x7f;
    rest >>= 7;
    if (rest === 0) {
      out.push(byte);
      return out;
    }
    out.push(byte | 0x80);
  }
}

/** The signer keys of a compiled message (legacy or v0): the first numRequiredSignatures static keys. */
function signersOf(message: Uint8Array): Uint8Array[] {
  const [first] = message;
  if (first === undefined) throw new TypeError("the message is empty");
  let offset = (first & 0x80) !== 0 ? 1 : 0;
  const required = message[offset];
  if (required === undefined) throw new TypeError("truncated message header");
  offset += 3;
  const [keys, start] = readShortVec(message, offset);
  if (required > keys) throw new TypeError("the message names more signers than keys");
  return Array.from({ length: required }, (_, i) => message.subarray(start + 32 * i, start + 32 * (i + 1)));
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * Signs the message through `solana:signTransaction`: wraps it in the wire format with empty signature
 * slots, has the wallet sign, checks that the wallet returned the very same message (a wallet that
 * rewrote it, e.g. added instructions, is refused: the solver's co-signature would not match), and
 * returns the user's signature from its slot.
 */
async function signAsTransaction(
  feature: SolanaSignTransactionFeature,
  account: StandardWalletAccount,
  message: Uint8Array,
  chain: string | undefined,
): Promise<Uint8Array> {
  const signers = signersOf(message);
  const publicKey = solanaPublicKeyBytes(account.address);
  const slot = publicKey ? signers.findIndex((key) => sameBytes(key, publicKey)) : -1;
  if (slot < 0) throw new TypeError(`the account ${account.address} is not a signer of the message`);
  const prefix = shortVec(signers.length);
  const transaction = new Uint8Array(prefix.length + 64 * signers.length + message.length);
  transaction.set(prefix, 0);
  transaction.set(message, prefix.length + 64 * signers.length);
  const [output] = await feature.signTransaction({ account, transaction, ...(chain ? { chain } : {}) });
  if (!output) throw new TypeError("the wallet returned no signed transaction");
  const signed = output.signedTransaction;
  const [count, start] = readShortVec(signed, 0);
  if (count !== signers.length || !sameBytes(signed.subarray(start + 64 * count), message)) {
    throw new TypeError("the wallet changed the transaction it was asked to sign: refused");
  }
  return signed.slice(start + 64 * slot, start + 64 * (slot + 1));
}

/**
 * A SolanaWallet over a Wallet Standard wallet, for `submit` on the `oif-escrow-nonevm` lane: the lane
 * needs the user's Ed25519 signature over the transaction message the solver compiled (the solver pays
 * the fees and adds its own signature). Connects (`standard:connect`) when the wallet has no account yet.
 * A refusal in the wallet (code 4001, or the wallet's own rejection error) surfaces from `submit` as a
 * `WalletRejectedError`.
 */
export async function walletStandardSolanaWallet(
  wallet: StandardWallet,
  options: WalletStandardOptions = {},
): Promise<SolanaWallet> {
  const { address, chain, prefer = "auto" } = options;
  let accounts = wallet.accounts;
  if (accounts.length === 0) {
    const connect = wallet.features["standard:connect"];
    if (!connect) throw new TypeError(`${wallet.name} has no account and no standard:connect`);
    accounts = (await connect.connect()).accounts;
  }
  const account = address === undefined ? accounts[0] : accounts.find((a) => a.address === address);
  if (!account) throw new TypeError(`${wallet.name} has no account ${address ?? ""}`.trim());

  const transactionFeature = wallet.features["solana:signTransaction"];
  const messageFeature = wallet.features["solana:signMessage"];
  const useTransaction = prefer === "transaction" || (prefer === "auto" && transactionFeature !== undefined);
  if (useTransaction) {
    if (!transactionFeature) throw new TypeError(`${wallet.name} has no solana:signTransaction`);
    return {
      address: account.address,
      async signEd25519(message) {
        return signAsTransaction(transactionFeature, account, message, chain);
      },
    };
  }
  if (!messageFeature) throw new TypeError(`${wallet.name} has no solana:signMessage`);

  return {
    address: account.address,
    async signEd25519(message) {
      const [output] = await messageFeature.signMessage({ account, message });
      if (!output) throw new TypeError("the wallet returned no signature");
      if (!sameBytes(output.signedMessage, message)) {
        throw new TypeError("the wallet signed other bytes than the message: refused");
      }
      return output.signature;
    },
  };
}
