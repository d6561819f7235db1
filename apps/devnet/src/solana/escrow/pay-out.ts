import { type Address, createNoopSigner } from "@solana/kit";
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from "@solana-program/token";
import { sendDevnetTransaction } from "../send-devnet-transaction.js";
import { escrowHistory } from "./escrow-history.js";
import { memoInstruction } from "./solana-deposit.js";
import { SolanaEscrowError } from "./solana-escrow-error.js";
import type { SolanaEscrowLedger } from "./solana-escrow-ledger.js";
import type { SolanaEscrowOrder } from "./solana-escrow-order.js";

/** Pays an order's deposit out of the vault to `owner`'s token account, once the escrow's rules allow it. */
export async function payOut(
  ledger: SolanaEscrowLedger,
  orderId: string,
  kind: "release" | "refund",
  owner: (order: SolanaEscrowOrder) => Address,
): Promise<string> {
  const { chain, settler, settling, unsettled } = ledger;
  if (settling.has(orderId))
    throw new SolanaEscrowError("already-settled", `order ${orderId} is being settled`);
  settling.add(orderId);
  try {
    const found = await escrowHistory(ledger, orderId);
    if (!found) throw new SolanaEscrowError("unknown-order", `no order ${orderId}`);
    if (!found.deposit)
      throw new SolanaEscrowError("no-deposit", `order ${orderId} has no deposit in the vault`);
    if (found.settled)
      throw new SolanaEscrowError("already-settled", `order ${orderId} is already ${found.settled}`);
    if (kind === "refund" && chain.unixTimestamp() < found.order.expires)
      throw new SolanaEscrowError(
        "not-expired",
        `order ${orderId} expires at ${found.order.expires}, the chain is at ${chain.unixTimestamp()}`,
      );
    const payee = owner(found.order);
    const [destination] = await findAssociatedTokenPda({
      owner: payee,
      mint: found.order.mint,
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
    });
    const settlerSigner = createNoopSigner(settler.address);
    const record = sendDevnetTransaction(chain, settler, [
      getCreateAssociatedTokenIdempotentInstruction({
        payer: settlerSigner,
        ata: destination,
        owner: payee,
        mint: found.order.mint,
      }),
      getTransferCheckedInstruction({
        source: found.vault,
        mint: found.order.mint,
        destination,
        authority: settlerSigner,
        amount: found.order.amount,
        decimals: chain.tokenDecimals(found.order.mint),
      }),
      memoInstruction(`${kind}:${orderId}`),
    ]);
    unsettled.delete(orderId);
    return record.signature;
  } finally {
    settling.delete(orderId);
  }
}
