import type { CommitteeState } from "./committee-state.js";
import type { TrackedFill } from "./observed-fill.js";
import type { SolanaRelease } from "./solana-release.js";

/** No EVM escrow opened the order and the Solana escrow holds it: the release is the settlement. */
export async function releaseOnSolana(
  { log }: CommitteeState,
  fill: TrackedFill,
  solana: SolanaRelease,
): Promise<"rejected" | undefined> {
  const { fillChainId, output } = fill;
  // Only an EVM fill (a chain id and the output it named) can release a Solana deposit.
  if (typeof fillChainId !== "number" || output === undefined) return undefined;
  const outcome = await solana.release({
    fillChainId,
    orderId: fill.orderId,
    solver: fill.solver,
    output,
    fillTxHash: fill.fillTxHash as `0x${string}`,
  });
  fill.originChainDomain = solana.chainDomain;
  if (outcome.state === "rejected") {
    fill.state = "rejected";
    fill.lastError = outcome.reason;
    log.warn({ orderId: fill.orderId, reason: outcome.reason }, "solana escrow fill rejected");
    return "rejected";
  }
  fill.releaseSignature = outcome.signature;
  fill.state = "proven";
  log.info({ orderId: fill.orderId, signature: outcome.signature }, "solana escrow released");
  return undefined;
}
