import { solanaKeyBytes } from "@hub/chain";
import { verifySolanaSignature } from "../solana/solana-keypair.js";

/** The Solana lane's signature envelope: 0x00, a 64-byte Ed25519 signature, the 32-byte public key. */
export const solanaEnvelopeLength = 97;

const base64Pattern = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The user's signature of `message` out of a standard-base64 envelope, or why it is refused: the
 * length, the prefix byte, the key (it must be `sender`) and the Ed25519 signature are all checked.
 */
export function openSolanaEnvelope(
  envelope: string,
  sender: string,
  message: Uint8Array,
): { signature: Uint8Array } | { problem: string } {
  if (!base64Pattern.test(envelope)) return { problem: "the signature envelope is not standard base64" };
  const bytes = Buffer.from(envelope, "base64");
  if (bytes.length !== solanaEnvelopeLength)
    return { problem: `the signature envelope is ${bytes.length} bytes, not ${solanaEnvelopeLength}` };
  if (bytes[0] !== 0) return { problem: "the signature envelope does not start with 0x00" };
  const signature = Uint8Array.from(bytes.subarray(1, 65));
  const publicKey = bytes.subarray(65);
  if (!publicKey.equals(solanaKeyBytes(sender)))
    return { problem: "the signature envelope's public key is not the sender's" };
  if (!verifySolanaSignature(sender, message, signature))
    return { problem: "the signature is not the sender's Ed25519 signature of the transaction message" };
  return { signature };
}
