import { bytes32ToSolanaKey, type MandateOutput, outputSettlerAbi, solanaOutputHash } from "@hub/chain";
import { address } from "@solana/kit";
import { decodeFunctionData, type Hex } from "viem";
import type { ChainClients } from "../create-chain-clients.js";
import { type SolanaEscrow, SolanaEscrowError } from "../solana/solana-escrow.js";

/** A fill of an order whose input the Solana escrow holds, as the committee saw it on the destination. */
export interface SolanaFill {
  fillChainId: number;
  orderId: Hex;
  /** The fill's solver: on this lane the bytes32 of the solver's Solana key. */
  solver: Hex;
  output: MandateOutput;
  fillTxHash: Hex;
}

export type SolanaReleaseOutcome =
  | { state: "released"; signature: string }
  | { state: "rejected"; reason: string };

/** The committee's side of the Solana → EVM lane: proves a fill against the escrow order and releases the vault. */
export interface SolanaRelease {
  chainDomain: string;
  /** Whether the order id is registered with the Solana escrow. */
  knows(orderId: string): boolean;
  /**
   * Releases the deposit to the fill's solver when the fill delivers what the order committed to
   * (`solanaOutputHash(fillDeadline, output) == outputHash`); a fill that does not is rejected for good.
   * Throws when the release cannot happen yet (no deposit), so the caller retries.
   */
  release(fill: SolanaFill): Promise<SolanaReleaseOutcome>;
}

export function createSolanaRelease(deps: {
  escrow: SolanaEscrow;
  chainDomain: string;
  clients: ChainClients;
}): SolanaRelease {
  const { escrow, clients } = deps;

  // OutputFilled carries no fillDeadline: it is read from the fill call itself.
  async function fillDeadlineOf(fill: SolanaFill): Promise<number | undefined> {
    const tx = await clients.get(fill.fillChainId).publicClient.getTransaction({ hash: fill.fillTxHash });
    try {
      const call = decodeFunctionData({ abi: outputSettlerAbi, data: tx.input });
      if (call.functionName !== "fill" || call.args[0].toLowerCase() !== fill.orderId.toLowerCase())
        return undefined;
      return Number(call.args[2]);
    } catch {
      return undefined;
    }
  }

  return {
    chainDomain: deps.chainDomain,
    knows: (orderId) => escrow.order(orderId) !== undefined,
    async release(fill) {
      const order = escrow.order(fill.orderId);
      if (!order)
        return { state: "rejected", reason: `order ${fill.orderId} is not registered with the escrow` };
      const fillDeadline = await fillDeadlineOf(fill);
      if (fillDeadline === undefined)
        return {
          state: "rejected",
          reason: `${fill.fillTxHash} is not a direct OutputSettler.fill of the order`,
        };
      if (solanaOutputHash(fillDeadline, fill.output) !== order.outputHash.toLowerCase())
        return { state: "rejected", reason: "the fill does not deliver the output the order committed to" };
      let solver: string;
      try {
        solver = bytes32ToSolanaKey(fill.solver);
      } catch {
        return { state: "rejected", reason: `the fill's solver ${fill.solver} is not a Solana key` };
      }
      try {
        return { state: "released", signature: await escrow.release(fill.orderId, address(solver)) };
      } catch (error) {
        if (error instanceof SolanaEscrowError && error.reason === "already-settled")
          return { state: "rejected", reason: error.message };
        throw error;
      }
    },
  };
}
