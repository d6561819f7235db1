import type { EvmWallet } from "./wallet.js";

/**
 * What `submit` needs of a Solana wallet on the `oif-escrow-nonevm` lane. `@intent-hub/sdk/solana` makes one
 * from a @solana/kit key pair; any other wallet fits by implementing these two members.
 */
export interface SolanaWallet {
  /** The user's public key in base58: the quote's sourceAccount and the payload's `sender`. */
  address: string;
  /** The 64-byte Ed25519 signature of the message bytes, verbatim (no prefix, no off-chain envelope). */
  signEd25519(message: Uint8Array): Promise<Uint8Array>;
}

/** Any wallet `submit` takes: an EVM wallet for the EVM lanes, a Solana wallet for the Solana lane. */
export type Wallet = EvmWallet | SolanaWallet;

/** True when the wallet is a Solana wallet. */
export function isSolanaWallet(wallet: Wallet): wallet is SolanaWallet {
  return typeof (wallet as Partial<SolanaWallet>).signEd25519 === "function";
}
