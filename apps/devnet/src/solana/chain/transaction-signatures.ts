import { verifySolanaSignature } from "../solana-keypair.js";
import { invalidParams } from "../solana-rpc-error.js";
import type { WireTransaction } from "../solana-wire-transaction.js";
import { base58 } from "./base58.js";

/** The transaction's first signature in base58, its id: a parsed transaction carries at least one. */
export function transactionId(tx: WireTransaction): string {
  const [signature] = tx.signatures;
  if (signature === undefined) throw invalidParams("invalid transaction: no signature");
  return base58.decode(signature);
}

function accountKey(tx: WireTransaction, index: number): string {
  const key = tx.accountKeys[index];
  if (key === undefined) throw invalidParams(`invalid transaction: no account key ${index}`);
  return key;
}

export function signaturesVerify(tx: WireTransaction): boolean {
  return tx.signatures.every((signature, i) =>
    verifySolanaSignature(accountKey(tx, i), tx.messageBytes, signature),
  );
}
