import { getTransactionDecoder } from "@solana/kit";
import type { WireTransaction } from "../solana-wire-transaction.js";

const transactionDecoder = getTransactionDecoder();

/** The transaction as @solana/kit decodes it, the form litesvm takes. */
export function toKitTransaction(tx: WireTransaction) {
  return transactionDecoder.decode(tx.bytes);
}
