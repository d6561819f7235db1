import { committeeOracleAbi, fillDescriptionHash, inputSettlerEscrowAbi, outputSettlerAbi } from "@hub/chain";
import type { Hex } from "viem";
import type { FaultKnobs } from "../faults/fault-knobs.js";
import { errorText } from "./error-text.js";
import { evmFillOutcome } from "./evm-fill-outcome.js";
import { transactionReceipt } from "./solver-chain-clients.js";
import type { OrderRecord, SolverState } from "./solver-state.js";

/** The escrow's orderStatus enum. */
const escrowOrderStatus = { None: 0, Deposited: 1, Claimed: 2, Refunded: 3 } as const;

type FailAt = ReturnType<FaultKnobs["get"]>["failAt"];

/** One move of the order's state machine; true when it moved and the next move may follow at once. */
export async function advanceSolverOrder(state: SolverState, record: OrderRecord): Promise<boolean> {
  const failAt = state.config.faults?.get(state.config.id).failAt;
  switch (record.status) {
    case "created":
      return openOrder(state, record, failAt);
    case "pending": {
      const mined = await transactionReceipt(
        state.client(record.quote.origin.chainId),
        requireTx(record.openTx),
      );
      if (!mined) return false;
      if (mined.status !== "success")
        return state.fail(record, "Prepare", `openFor reverted in ${record.openTx}`);
      return state.move(record, "executing");
    }
    case "executing":
      return record.fillTx ? fillOutcome(state, record, record.fillTx) : fillOutput(state, record, failAt);
    case "executed":
      if (failAt === "PostFill") return state.fail(record, "PostFill", "solver failed after the fill");
      return state.move(record, "settling");
    case "settling":
      return awaitProof(state, record);
    case "settled":
      return claim(state, record, failAt);
    default:
      return false;
  }
}

async function openOrder(state: SolverState, record: OrderRecord, failAt: FailAt): Promise<boolean> {
  const { quote: stored } = record;
  const origin = state.client(stored.origin.chainId);
  const escrow = stored.origin.contracts.inputSettlerEscrow;
  if (failAt === "Prepare") return state.fail(record, "Prepare", "solver failed before opening the order");
  if (record.signature) {
    try {
      record.openTx = await origin.walletClient.writeContract({
        address: escrow,
        abi: inputSettlerEscrowAbi,
        functionName: "openFor",
        args: [stored.order, stored.order.user, record.signature],
      });
    } catch (error) {
      return state.fail(record, "Prepare", `openFor failed: ${errorText(error)}`);
    }
    return state.move(record, "pending");
  }
  const opened = await origin.publicClient.getContractEvents({
    address: escrow,
    abi: inputSettlerEscrowAbi,
    eventName: "Open",
    args: { orderId: record.orderId },
    fromBlock: BigInt(stored.origin.deployBlock),
  });
  if (opened[0]) {
    record.openTx = opened[0].transactionHash;
    return state.move(record, "executing");
  }
  if ((await state.chainSeconds(stored.origin)) > stored.order.fillDeadline)
    return state.fail(record, "Prepare", "the order was not opened before its fill deadline");
  return false;
}

async function fillOutput(state: SolverState, record: OrderRecord, failAt: FailAt): Promise<boolean> {
  const { quote: stored } = record;
  const output = firstOutput(record);
  if (failAt === "Fill") return state.fail(record, "Fill", "solver failed before filling the output");
  const onChain = await escrowStatus(state, record);
  if (onChain === escrowOrderStatus.Refunded) return state.move(record, "refunded");
  if (onChain !== escrowOrderStatus.Deposited)
    return state.fail(record, "Fill", `escrow holds no deposit for the order (status ${onChain})`);
  try {
    if (stored.solana) {
      record.fillTx = await requireSolanaFiller(state).fill({
        orderId: record.orderId,
        output,
        decimals: stored.solana.token.decimals,
        solver: state.solverAddress,
      });
    } else {
      const destination = requireDestination(record);
      record.fillTx = await state.client(destination.chainId).walletClient.writeContract({
        address: destination.contracts.outputSettler,
        abi: outputSettlerAbi,
        functionName: "fill",
        args: [record.orderId, output, stored.order.fillDeadline, state.solverBytes32],
      });
    }
  } catch (error) {
    return state.fail(record, "Fill", `fill failed: ${errorText(error)}`);
  }
  record.updatedAt = state.nowSeconds();
  return true;
}

async function fillOutcome(state: SolverState, record: OrderRecord, fillTx: string): Promise<boolean> {
  const { quote: stored } = record;
  if (stored.solana) {
    const outcome = await requireSolanaFiller(state).outcome(fillTx);
    if (outcome.state === "pending") return false;
    if (outcome.state === "failed") return state.fail(record, "Fill", outcome.reason);
    // The escrow refuses a fill stamped after the deadline, as an EVM output settler refuses the fill.
    if (outcome.blockTime > stored.order.fillDeadline)
      return state.fail(record, "Fill", `fill ${fillTx} landed after the fill deadline`);
    record.fillTimestamp = outcome.blockTime;
    return state.move(record, "executed");
  }
  const destination = state.client(requireDestination(record).chainId);
  const outcome = await evmFillOutcome(destination, fillTx as Hex, record.orderId);
  if (outcome.state === "pending") return false;
  if (outcome.state === "failed") return state.fail(record, "Fill", outcome.reason);
  record.fillTimestamp = outcome.fillTimestamp;
  return state.move(record, "executed");
}

async function awaitProof(state: SolverState, record: OrderRecord): Promise<boolean> {
  const { quote: stored } = record;
  const output = firstOutput(record);
  const proven = await state.client(stored.origin.chainId).publicClient.readContract({
    address: stored.order.inputOracle,
    abi: committeeOracleAbi,
    functionName: "isProven",
    args: [
      output.chainId,
      output.oracle,
      output.settler,
      fillDescriptionHash({
        solver: state.solverBytes32,
        orderId: record.orderId,
        timestamp: requireFillTimestamp(record),
        output,
      }),
    ],
  });
  if (proven) return state.move(record, "settled");
  if ((await escrowStatus(state, record)) === escrowOrderStatus.Refunded)
    return state.move(record, "refunded");
  return false;
}

async function claim(state: SolverState, record: OrderRecord, failAt: FailAt): Promise<boolean> {
  const { quote: stored } = record;
  const origin = state.client(stored.origin.chainId);
  if (!record.claimTx) {
    if (failAt === "PreClaim") return state.fail(record, "PreClaim", "solver failed before claiming");
    if (failAt === "Claim") return state.fail(record, "Claim", "solver failed to claim");
    try {
      record.claimTx = await origin.walletClient.writeContract({
        address: stored.origin.contracts.inputSettlerEscrow,
        abi: inputSettlerEscrowAbi,
        functionName: "finalise",
        args: [
          stored.order,
          [{ timestamp: requireFillTimestamp(record), solver: state.solverBytes32 }],
          state.solverBytes32,
          "0x",
        ],
      });
    } catch (error) {
      return state.fail(record, "Claim", `finalise failed: ${errorText(error)}`);
    }
    record.updatedAt = state.nowSeconds();
    return true;
  }
  const mined = await transactionReceipt(origin, record.claimTx);
  if (!mined) return false;
  if (mined.status !== "success")
    return state.fail(record, "Claim", `finalise reverted in ${record.claimTx}`);
  return state.move(record, "finalized");
}

async function escrowStatus(state: SolverState, record: OrderRecord): Promise<number> {
  return state.client(record.quote.origin.chainId).publicClient.readContract({
    address: record.quote.origin.contracts.inputSettlerEscrow,
    abi: inputSettlerEscrowAbi,
    functionName: "orderStatus",
    args: [record.orderId],
  });
}

function firstOutput(record: OrderRecord) {
  const [output] = record.quote.order.outputs;
  if (!output) throw new Error(`order ${record.orderId} has no output`);
  return output;
}

function requireDestination(record: OrderRecord) {
  if (!record.quote.destination) throw new Error(`order ${record.orderId} has no EVM destination`);
  return record.quote.destination;
}

function requireSolanaFiller(state: SolverState): NonNullable<SolverState["solanaFiller"]> {
  if (!state.solanaFiller) throw new Error("a Solana output needs the solver's Solana key");
  return state.solanaFiller;
}

function requireTx(hash: Hex | undefined): Hex {
  if (!hash) throw new Error("a pending order has its open transaction");
  return hash;
}

function requireFillTimestamp(record: OrderRecord): number {
  if (record.fillTimestamp === undefined) throw new Error(`order ${record.orderId} has no fill timestamp`);
  return record.fillTimestamp;
}
