import { SolanaRpcError, solanaRpcErrorCodes } from "../solana-rpc-error.js";
import { describeTransactionError } from "../solana-transaction-error.js";
import { parseWireTransaction } from "../solana-wire-transaction.js";
import { landTransaction } from "./land-transaction.js";
import { requireSupported, simulateParsedTransaction, simulationResult } from "./simulate-transaction.js";
import { isBlockhashValid } from "./solana-blockhashes.js";
import type { SolanaChainState } from "./solana-chain-state.js";
import { signaturesVerify, transactionId } from "./transaction-signatures.js";

/** Sends a serialized transaction like a node's sendTransaction; answers its signature. */
export function sendTransaction(
  state: SolanaChainState,
  bytes: Uint8Array,
  options: { skipPreflight?: boolean },
): string {
  const tx = parseWireTransaction(bytes);
  requireSupported(tx);
  const signature = transactionId(tx);
  if (!options.skipPreflight) {
    if (!signaturesVerify(tx))
      throw new SolanaRpcError(
        solanaRpcErrorCodes.transactionSignatureVerificationFailure,
        "Transaction signature verification failure",
      );
    const simulation = simulateParsedTransaction(state, tx, false, true);
    if (simulation.err !== null)
      throw new SolanaRpcError(
        solanaRpcErrorCodes.sendTransactionPreflightFailure,
        `Transaction simulation failed: ${describeTransactionError(simulation.err)}`,
        simulationResult(simulation),
      );
  }
  // Like a node that forwards to the leader: a transaction that cannot land is dropped, and its
  // signature is answered all the same (it then never gets a status).
  if (isBlockhashValid(state, tx.recentBlockhash) && !state.history.has(signature) && signaturesVerify(tx))
    landTransaction(state, tx);
  return signature;
}
