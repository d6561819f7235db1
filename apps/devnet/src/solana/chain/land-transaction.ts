import type { FailedTransactionMetadata, TransactionMetadata } from "litesvm";
import { solanaTransactionError } from "../solana-transaction-error.js";
import { solanaTransactionFee } from "../solana-transaction-fee.js";
import type { WireTransaction } from "../solana-wire-transaction.js";
import { toKitTransaction } from "./kit-transaction.js";
import { forgetExpiredBlockhashes } from "./solana-blockhashes.js";
import type { SolanaChainState } from "./solana-chain-state.js";
import { chainNow, openNextSlot, setClockSysvar } from "./solana-slots.js";
import type { SolanaTransactionRecord } from "./solana-transaction-record.js";
import { balanceSnapshot } from "./token-accounts.js";
import { recordTransaction } from "./transaction-history.js";
import { transactionMemo } from "./transaction-memo.js";
import { transactionId } from "./transaction-signatures.js";

function innerInstructions(meta: TransactionMetadata): SolanaTransactionRecord["innerInstructions"] {
  return meta
    .innerInstructions()
    .map((inner, index) => ({
      index,
      instructions: inner.map((item) => ({
        programIdIndex: item.instruction().programIdIndex(),
        accounts: Array.from(item.instruction().accounts()),
        data: item.instruction().data(),
        stackHeight: item.stackHeight(),
      })),
    }))
    .filter((entry) => entry.instructions.length > 0);
}

/** Runs a transaction in the next slot; records it if it landed (a failed one lands when its fee was charged). */
export function landTransaction(
  state: SolanaChainState,
  tx: WireTransaction,
): SolanaTransactionRecord | undefined {
  const { svm } = state;
  openNextSlot(state);
  setClockSysvar(state);
  const blockTime = Math.floor(chainNow(state) / 1000);
  const before = balanceSnapshot(svm, tx.accountKeys);
  const result: TransactionMetadata | FailedTransactionMetadata = svm.sendTransaction(toKitTransaction(tx));
  const failed = "err" in result;
  const meta = failed ? result.meta() : result;
  const after = balanceSnapshot(svm, tx.accountKeys);
  // A transaction refused before execution charges nothing and never lands.
  if (failed && before.balances[0] === after.balances[0]) return undefined;
  const record: SolanaTransactionRecord = {
    signature: transactionId(tx),
    slot: state.slot,
    blockTime,
    transaction: tx,
    err: failed ? solanaTransactionError(result.err()) : null,
    fee: solanaTransactionFee(tx),
    preBalances: before.balances,
    postBalances: after.balances,
    preTokenBalances: before.tokenBalances,
    postTokenBalances: after.tokenBalances,
    logMessages: meta.logs(),
    innerInstructions: innerInstructions(meta),
    computeUnitsConsumed: meta.computeUnitsConsumed(),
    memo: transactionMemo(tx),
  };
  recordTransaction(state, record);
  forgetExpiredBlockhashes(state);
  return record;
}
