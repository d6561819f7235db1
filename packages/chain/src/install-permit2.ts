import type { Client } from "viem";
import { permit2RuntimeBytecode } from "../artifacts/contract-artifacts.js";

/** The canonical Permit2 runtime that installPermit2 sets. */
export { permit2RuntimeBytecode };

/** The canonical Permit2 address, the same on every public chain. */
export const PERMIT2_ADDRESS = "0x000000000022D473030F116dDEE9F6B43aC78BA3" as const;

/**
 * Installs the canonical Permit2 runtime at its canonical address on an anvil node. Its EIP-712
 * domain separator is recomputed for the node's chain id, so wallet signatures verify as on a public chain.
 */
export async function installPermit2(client: Pick<Client, "request">): Promise<void> {
  await (client.request as (args: { method: string; params: unknown[] }) => Promise<unknown>)({
    method: "anvil_setCode",
    params: [PERMIT2_ADDRESS, permit2RuntimeBytecode],
  });
}
