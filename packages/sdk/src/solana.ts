// The @solana/kit adapter: a SolanaWallet from a key pair. @solana/kit is an optional peer: only this
// entry point (`@intent-hub/sdk/solana`) imports it.
import {
  createKeyPairSignerFromBytes,
  createSignerFromKeyPair,
  getBase58Encoder,
  type KeyPairSigner,
  signBytes,
} from "@solana/kit";
import type { SolanaWallet } from "./solana-wallet.js";

/** A WebCrypto Ed25519 key pair, as @solana/kit's generateKeyPair and createKeyPairFromBytes make it. */
export type Ed25519KeyPair = KeyPairSigner["keyPair"];

/** A SolanaWallet that signs with a @solana/kit KeyPairSigner, or with a WebCrypto Ed25519 key pair. */
export async function solanaWallet(key: KeyPairSigner | Ed25519KeyPair): Promise<SolanaWallet> {
  const signer = "address" in key ? key : await createSignerFromKeyPair(key);
  return {
    address: signer.address,
    signEd25519: async (message) => new Uint8Array(await signBytes(signer.keyPair.privateKey, message)),
  };
}

/**
 * A SolanaWallet from the 64-byte key pair (seed then public key) in base58, as wallets export it and as
 * the devnet's dev.json `solanaAccounts[].secretKey` carries it. Refuses a key pair whose halves disagree.
 */
export async function solanaWalletFromSecretKey(secretKey: string): Promise<SolanaWallet> {
  const bytes = getBase58Encoder().encode(secretKey);
  if (bytes.length !== 64) throw new TypeError("a Solana secret key is 64 bytes in base58");
  return solanaWallet(await createKeyPairSignerFromBytes(bytes));
}
