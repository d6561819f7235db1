import { outputSettlerAbi } from "@hub/chain";
import type { FailStage } from "../faults/fault-knobs.js";
import { describeTransactionError } from "../solana/solana-transaction-error.js";
import { errorText } from "./error-text.js";
import { evmFillOutcome } from "./evm-fill-outcome.js";
import {
  blockSeconds,
  type SolanaSourceRecord,
  type SolanaSourceState,
  sentDeposit,
} from "./solana-source-state.js";

/** A memo as the chain's history shows it. */
const memoField = (text: string) => `[${Buffer.byteLength(text)}] ${text}`;

// The escrow's settlement of the order, read from the vault's history since the deposit.
async function vaultSettlement(
  state: SolanaSourceState,
  record: SolanaSourceRecord,
): Promise<{ kind: "release" | "refund"; signature: string } | undefined> {
  const { solana } = state.config;
  const { orderId, mint } = record.quote.escrowOrder;
  const vault = await solana.escrow.vault(mint);
  for (const entry of solana.chain.signaturesForAddress(vault, { until: sentDeposit(record) })) {
    if (entry.err !== null || entry.transaction.accountKeys[0] !== solana.escrow.settler) continue;
    if (entry.memo === memoField(`release:${orderId}`))
      return { kind: "release", signature: entry.signature };
    if (entry.memo === memoField(`refund:${orderId}`)) return { kind: "refund", signature: entry.signature };
  }
  return undefined;
}

/** One move of the order's state machine; true when it moved and the next move may follow at once. */
export async function advanceSolanaSourceOrder(
  state: SolanaSourceState,
  record: SolanaSourceRecord,
): Promise<boolean> {
  const { config, move, fail } = state;
  const failAt = config.faults?.get(config.id).failAt;
  switch (record.status) {
    case "created":
      return sendDeposit(state, record, failAt);
    case "pending":
      return awaitDeposit(state, record);
    case "executing":
      return fillOutput(state, record, failAt);
    case "executed":
      if (failAt === "PostFill") return fail(record, "PostFill", "solver failed after the fill");
      return move(record, "settling");
    case "settling": {
      const settled = await vaultSettlement(state, record);
      if (settled?.kind === "refund") return move(record, "refunded");
      if (settled?.kind !== "release") return false;
      record.claimTx = settled.signature;
      return move(record, "settled");
    }
    case "settled":
      // The committee's release already paid the solver: these knobs only stop the solver's reports.
      if (failAt === "PreClaim") return fail(record, "PreClaim", "solver failed before claiming");
      if (failAt === "Claim") return fail(record, "Claim", "solver failed to claim");
      return move(record, "finalized");
    default:
      return false;
  }
}

function sendDeposit(
  state: SolanaSourceState,
  record: SolanaSourceRecord,
  failAt: FailStage | undefined,
): boolean {
  const { config, move, fail } = state;
  if (failAt === "Prepare") return fail(record, "Prepare", "solver failed before sending the deposit");
  try {
    record.openTx = config.solana.chain.send(record.wire);
  } catch (error) {
    return fail(record, "Prepare", `the deposit was refused: ${errorText(error)}`);
  }
  return move(record, "pending");
}

function awaitDeposit(state: SolanaSourceState, record: SolanaSourceRecord): boolean {
  const { config, move, fail } = state;
  const { chain } = config.solana;
  const { quote: stored } = record;
  const landed = chain.transaction(sentDeposit(record));
  if (!landed) {
    if (chain.isBlockhashValid(stored.deposit.lifetimeConstraint.blockhash)) return false;
    return fail(record, "Prepare", `the deposit ${record.openTx} did not land before its blockhash expired`);
  }
  if (landed.err !== null)
    return fail(
      record,
      "Prepare",
      `the deposit ${record.openTx} failed: ${describeTransactionError(landed.err)}`,
    );
  return move(record, "executing");
}

async function fillOutput(
  state: SolanaSourceState,
  record: SolanaSourceRecord,
  failAt: FailStage | undefined,
): Promise<boolean> {
  const { config, move, fail } = state;
  const { quote: stored } = record;
  const destination = config.client(stored.destination.chainId);
  if (!record.fillTx) {
    if (failAt === "Fill") return fail(record, "Fill", "solver failed before filling the output");
    if ((await vaultSettlement(state, record))?.kind === "refund") return move(record, "refunded");
    if ((await blockSeconds(state, stored.destination)) > stored.fillDeadline)
      return fail(record, "Fill", "the fill deadline passed before the fill");
    try {
      record.fillTx = await destination.walletClient.writeContract({
        address: stored.destination.contracts.outputSettler,
        abi: outputSettlerAbi,
        functionName: "fill",
        args: [stored.escrowOrder.orderId, stored.output, stored.fillDeadline, state.fillerData],
      });
    } catch (error) {
      return fail(record, "Fill", `fill failed: ${errorText(error)}`);
    }
    record.updatedAt = state.nowSeconds();
    return true;
  }
  const outcome = await evmFillOutcome(destination, record.fillTx, stored.escrowOrder.orderId);
  if (outcome.state === "pending") return false;
  if (outcome.state === "failed") return fail(record, "Fill", outcome.reason);
  record.fillTimestamp = outcome.fillTimestamp;
  return move(record, "executed");
}
