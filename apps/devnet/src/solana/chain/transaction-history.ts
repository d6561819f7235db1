import type { SolanaChainState } from "./solana-chain-state.js";
import type { SolanaTransactionRecord } from "./solana-transaction-record.js";

export function recordTransaction(state: SolanaChainState, record: SolanaTransactionRecord): void {
  state.history.set(record.signature, record);
  for (const key of record.transaction.accountKeys) {
    const list = state.byAddress.get(key);
    if (list) list.push(record);
    else state.byAddress.set(key, [record]);
  }
}

/** Newest first, like getSignaturesForAddress, from `before` (excluded) back to `until` (excluded). */
export function signaturesForAddress(
  state: SolanaChainState,
  account: string,
  options: { before?: string; until?: string; limit?: number },
): SolanaTransactionRecord[] {
  const list = state.byAddress.get(account) ?? [];
  const limit = options.limit ?? 1000;
  const found: SolanaTransactionRecord[] = [];
  let started = options.before === undefined;
  for (const record of list.toReversed()) {
    if (found.length >= limit) break;
    if (!started) {
      started = record.signature === options.before;
      continue;
    }
    if (record.signature === options.until) break;
    found.push(record);
  }
  return found;
}
