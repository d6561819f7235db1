import { createPublicKey, verify } from "node:crypto";
import { decodeBase58 } from "@hub/chain";
import { HubError } from "@hub/contract";
import type { SolanaQuoteBlock } from "../../quotes/solana-quote-template.js";

const ED25519_SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

function refuse(message: string): never {
  throw new HubError("EIN0001", { reference: "signature", message });
}

/** The 97-byte envelope (0x00, signature, public key) in standard base64, forwarded as sent. */
export function normaliseSolanaEnvelope(value: string): string {
  const bytes = BASE64.test(value) ? Buffer.from(value, "base64") : undefined;
  if (bytes?.length !== 97 || bytes[0] !== 0 || bytes.toString("base64") !== value)
    refuse("Solana lane: the 97-byte envelope (0x00, signature, public key) as standard base64.");
  return value;
}

/**
 * Checks a 97-byte envelope (already length- and prefix-checked) against the stored quote's vetted
 * terms: the public key (bytes 65..96) is the `sender`, and the Ed25519 signature (bytes 1..64)
 * verifies over the base64-decoded `transactionMessage`. The `digest` is a checksum and plays no part.
 */
export function verifySolanaEnvelope(
  quote: Pick<SolanaQuoteBlock, "sender" | "transactionMessage">,
  envelope: string,
): void {
  const { sender, transactionMessage } = quote;
  const bytes = Buffer.from(envelope, "base64");
  const signature = bytes.subarray(1, 65);
  const publicKey = bytes.subarray(65, 97);
  const senderKey = decodeBase58(sender);
  if (senderKey?.length !== 32 || !publicKey.equals(senderKey))
    refuse("Solana lane: the envelope's public key is not the quote's sender.");
  const key = createPublicKey({
    key: Buffer.concat([ED25519_SPKI_PREFIX, publicKey]),
    format: "der",
    type: "spki",
  });
  if (!verify(null, Buffer.from(transactionMessage, "base64"), key, signature))
    refuse("Solana lane: the signature does not verify over the quote's transactionMessage.");
}
