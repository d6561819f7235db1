import { SolverError } from "./solver-error.js";

/**
 * A solver's price: the output is the input less `spreadBps`, rounded down; for an exact output the
 * input is rounded up, so the solver never pays more than its spread allows.
 */
export function quoteAmounts(
  spreadBps: number,
  swap: { swapType: "exact-input"; amountIn: bigint } | { swapType: "exact-output"; amountOut: bigint },
): { amountIn: bigint; amountOut: bigint } {
  if (!Number.isInteger(spreadBps) || spreadBps < 0 || spreadBps >= 10_000)
    throw new Error(`spread ${spreadBps} bps is outside 0..9999`);
  const keep = 10_000n - BigInt(spreadBps);
  if (swap.swapType === "exact-output")
    return { amountIn: (swap.amountOut * 10_000n + keep - 1n) / keep, amountOut: swap.amountOut };
  return { amountIn: swap.amountIn, amountOut: (swap.amountIn * keep) / 10_000n };
}

// validateQuoteRequest has checked that the amount the swap type fixes is present.
export function requireAmount(amount: string | undefined): string {
  if (amount === undefined) throw new SolverError(400, "VALIDATION_ERROR", "amount missing");
  return amount;
}
