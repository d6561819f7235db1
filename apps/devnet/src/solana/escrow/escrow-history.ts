import { readSolanaDeposit } from "./solana-deposit.js";
import { escrowVault, type SolanaEscrowLedger } from "./solana-escrow-ledger.js";
import type { SolanaEscrowDeposit } from "./solana-escrow-order.js";

/** One memo as a transaction's `memo` field shows it: "[<bytes>] <text>". */
function memoField(text: string): string {
  return `[${Buffer.byteLength(text)}] ${text}`;
}

/** An order's terms with what the vault's history shows of it: its deposit and how it was settled. */
export async function escrowHistory(ledger: SolanaEscrowLedger, orderId: string) {
  const { orders, chain, settler } = ledger;
  const order = orders.get(orderId);
  if (!order) return undefined;
  const vaultAddress = await escrowVault(ledger, order.mint);
  const records = chain.signaturesForAddress(vaultAddress, { limit: Number.MAX_SAFE_INTEGER }).reverse();
  let deposit: SolanaEscrowDeposit | undefined;
  let settled: "released" | "refunded" | undefined;
  for (const record of records) {
    const read = readSolanaDeposit(record, vaultAddress);
    if (
      !deposit &&
      read &&
      read.memo === orderId &&
      read.authority === order.user &&
      read.mint === order.mint &&
      read.amount === order.amount
    )
      deposit = { signature: record.signature, slot: record.slot, source: read.source };
    if (record.err === null && record.transaction.accountKeys[0] === settler.address) {
      if (record.memo === memoField(`release:${orderId}`)) settled = "released";
      if (record.memo === memoField(`refund:${orderId}`)) settled = "refunded";
    }
  }
  return { order, vault: vaultAddress, deposit, settled };
}
