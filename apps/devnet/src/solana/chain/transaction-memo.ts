import { address } from "@solana/kit";
import type { WireTransaction } from "../solana-wire-transaction.js";

export const memoProgramAddress = address("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr");
const memoV1ProgramAddress = "Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo";

/** The transaction's memos as getSignaturesForAddress shows them; null without one. */
export function transactionMemo(tx: WireTransaction): string | null {
  const memos = tx.instructions
    .filter((instruction) => {
      const program = tx.accountKeys[instruction.programIdIndex];
      return program === memoProgramAddress || program === memoV1ProgramAddress;
    })
    .map((instruction) => `[${instruction.data.length}] ${new TextDecoder().decode(instruction.data)}`);
  return memos.length > 0 ? memos.join("; ") : null;
}
