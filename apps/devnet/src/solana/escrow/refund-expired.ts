import { escrowHistory } from "./escrow-history.js";
import { payOut } from "./pay-out.js";
import { SolanaEscrowError } from "./solana-escrow-error.js";
import type { SolanaEscrowLedger } from "./solana-escrow-ledger.js";

/**
 * Refunds every registered order that is deposited, unreleased and past its expiry; answers their ids.
 * An order past its expiry without a deposit is looked at once and then no more.
 */
export async function refundExpired(ledger: SolanaEscrowLedger): Promise<string[]> {
  const { chain, orders, settling, unsettled } = ledger;
  const refunded: string[] = [];
  for (const orderId of [...unsettled]) {
    const order = orders.get(orderId);
    if (order === undefined || chain.unixTimestamp() < order.expires || settling.has(orderId)) continue;
    const found = await escrowHistory(ledger, orderId);
    // Settled, or expired with no deposit: forgotten. A deposit landing after expiry is not looked
    // for, as a program would refuse it (the quoted message's blockhash is long invalid by then).
    if (!found?.deposit || found.settled) {
      unsettled.delete(orderId);
      continue;
    }
    try {
      await payOut(ledger, orderId, "refund", (order) => order.user);
      refunded.push(orderId);
    } catch (error) {
      // Settled meanwhile by another caller: nothing left to refund.
      if (!(error instanceof SolanaEscrowError && error.reason === "already-settled")) throw error;
    }
  }
  return refunded;
}
