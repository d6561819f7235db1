import { invalidParams, SolanaRpcError, solanaRpcErrorCodes } from "../solana-rpc-error.js";
import { type SolanaTransactionError, solanaTransactionError } from "../solana-transaction-error.js";
import { parseWireTransaction, type WireTransaction } from "../solana-wire-transaction.js";
import { toKitTransaction } from "./kit-transaction.js";
import { isBlockhashValid, latestBlockhash } from "./solana-blockhashes.js";
import type { SolanaChainState } from "./solana-chain-state.js";
import { currentSlot, setClockSysvar } from "./solana-slots.js";
import { signaturesVerify, transactionId } from "./transaction-signatures.js";

export interface SolanaSimulation {
  err: SolanaTransactionError | null;
  logs: string[];
  unitsConsumed: bigint;
  replacementBlockhash?: { blockhash: string; lastValidBlockHeight: bigint };
}

/** A simulation as simulateTransaction's `value` (and a failed preflight's `data`) reports it. */
export function simulationResult(simulation: SolanaSimulation) {
  return {
    err: simulation.err,
    logs: simulation.logs,
    accounts: null,
    unitsConsumed: simulation.unitsConsumed,
    returnData: null,
    innerInstructions: null,
    ...(simulation.replacementBlockhash ? { replacementBlockhash: simulation.replacementBlockhash } : {}),
  };
}

export function requireSupported(tx: WireTransaction): void {
  if (tx.addressTableLookups.length > 0)
    throw invalidParams("invalid transaction: this stand-in loads no address lookup tables");
}

export function simulateParsedTransaction(
  state: SolanaChainState,
  tx: WireTransaction,
  replaceRecentBlockhash: boolean,
  sigVerify: boolean,
): SolanaSimulation {
  const { svm } = state;
  requireSupported(tx);
  currentSlot(state);
  setClockSysvar(state);
  const replacement = replaceRecentBlockhash ? latestBlockhash(state) : undefined;
  if (!replacement && !isBlockhashValid(state, tx.recentBlockhash))
    return { err: "BlockhashNotFound", logs: [], unitsConsumed: 0n };
  if (state.history.has(transactionId(tx))) return { err: "AlreadyProcessed", logs: [], unitsConsumed: 0n };
  svm.withSigverify(sigVerify);
  try {
    const result = svm.simulateTransaction(toKitTransaction(tx));
    const meta = result.meta();
    return {
      err: "err" in result ? solanaTransactionError(result.err()) : null,
      logs: meta.logs(),
      unitsConsumed: meta.computeUnitsConsumed(),
      ...(replacement ? { replacementBlockhash: replacement } : {}),
    };
  } finally {
    svm.withSigverify(true);
  }
}

/** simulateTransaction: the serialized transaction run against the current state, nothing kept. */
export function simulateTransaction(
  state: SolanaChainState,
  bytes: Uint8Array,
  options: { sigVerify?: boolean; replaceRecentBlockhash?: boolean },
): SolanaSimulation {
  const tx = parseWireTransaction(bytes);
  if (options.sigVerify && options.replaceRecentBlockhash)
    throw invalidParams("sigVerify may not be used with replaceRecentBlockhash");
  if (options.sigVerify && !signaturesVerify(tx))
    throw new SolanaRpcError(
      solanaRpcErrorCodes.transactionSignatureVerificationFailure,
      "Transaction signature verification failure",
    );
  return simulateParsedTransaction(
    state,
    tx,
    options.replaceRecentBlockhash ?? false,
    options.sigVerify ?? false,
  );
}
