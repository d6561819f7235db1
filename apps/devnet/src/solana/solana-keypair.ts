import { createHash, createPrivateKey, createPublicKey, type KeyObject, sign, verify } from "node:crypto";
import { type Address, address, getBase58Decoder, getBase58Encoder } from "@solana/kit";

/** An Ed25519 key pair of the Solana devnet, with a synchronous signer. */
export interface SolanaKeypair {
  address: Address;
  /** The 64-byte key pair (seed then public key) in base58, as a wallet exports it. */
  secretKey: string;
  sign(message: Uint8Array): Uint8Array;
}

// PKCS#8 wrapping of a raw 32-byte Ed25519 seed (RFC 8410).
const pkcs8Ed25519Prefix = Buffer.from("302e020100300506032b657004220420", "hex");
const spkiEd25519Prefix = Buffer.from("302a300506032b6570032100", "hex");

function keypairFromSeed(seed: Uint8Array): SolanaKeypair {
  const privateKey = createPrivateKey({
    key: Buffer.concat([pkcs8Ed25519Prefix, seed]),
    format: "der",
    type: "pkcs8",
  });
  const publicKey = createPublicKey(privateKey).export({ format: "der", type: "spki" }).subarray(-32);
  return {
    address: address(getBase58Decoder().decode(publicKey)),
    secretKey: getBase58Decoder().decode(Buffer.concat([seed, publicKey])),
    sign: (message) => new Uint8Array(sign(null, message, privateKey)),
  };
}

/** The devnet key pair named `label`: its seed is sha256 of the label, so every start has the same keys. */
export function devnetSolanaKeypair(label: string): SolanaKeypair {
  return keypairFromSeed(createHash("sha256").update(`intent-hub devnet solana key: ${label}`).digest());
}

/** The key pair of a 64-byte base58 secret key as a wallet exports it. */
export function solanaKeypairFromSecretKey(secretKey: string): SolanaKeypair {
  const bytes = Uint8Array.from(getBase58Encoder().encode(secretKey));
  if (bytes.length !== 64) throw new Error("a Solana secret key is 64 bytes");
  const keypair = keypairFromSeed(bytes.subarray(0, 32));
  if (keypair.secretKey !== secretKey)
    throw new Error("the secret key's public half does not match its seed");
  return keypair;
}

const publicKeys = new Map<string, KeyObject>();

/** Whether `signature` is `address`'s Ed25519 signature of `message`. */
export function verifySolanaSignature(
  addressText: string,
  message: Uint8Array,
  signature: Uint8Array,
): boolean {
  let key = publicKeys.get(addressText);
  if (!key) {
    const raw = getBase58Encoder().encode(addressText);
    if (raw.length !== 32) return false;
    try {
      key = createPublicKey({
        key: Buffer.concat([spkiEd25519Prefix, Buffer.from(raw)]),
        format: "der",
        type: "spki",
      });
    } catch {
      return false;
    }
    if (publicKeys.size > 10_000) publicKeys.clear();
    publicKeys.set(addressText, key);
  }
  return verify(null, message, key, signature);
}
