import type { OnchainRefund } from "@hub/contract";
import type { LaneFacts } from "../lanes/lane-table.js";
import type { ChainWatermark } from "../store/chain-facts-store.js";
import type { CatalogChain, CatalogSolanaChain } from "@hub/contract";
import type {
  ChainFamily,
  ChainFamilyName,
  FamilyChainView,
  OifChainForm,
  OpenForEnvelope,
} from "./chain-family.js";
import { evmChainFamily } from "./evm/evm-chain-family.js";
import { solanaChainFamily } from "./solana/solana-chain-family.js";

/** The one table of chain families, keyed as the catalog groups its chains. */
export const chainFamilies = {
  evm: evmChainFamily,
  solana: solanaChainFamily,
} as const satisfies Record<ChainFamilyName, ChainFamily<{ chainDomain: string }, never, never>>;

const familyList: readonly ChainFamily<{ chainDomain: string }, never, never>[] =
  Object.values(chainFamilies);

/** One side of a quote route as the families read it, on a chain of any family. */
export type RouteEnd =
  | { family: "evm"; chain: CatalogChain; token: `0x${string}` }
  | { family: "solana"; chain: CatalogSolanaChain; mint: string };

/** The OIF form of a route side's family. */
export function oifFormOf<End extends RouteEnd>(end: End): OifChainForm<End> {
  // The table pairs each family name with its own route end; the compiler cannot see the pairing.
  return chainFamilies[end.family].oif as unknown as OifChainForm<End>;
}

/** The refund view of the first family whose own facts hold the order's open, if any does. */
export function familyRefundView(
  orderId: string,
  loaded: FamilyChainView,
  chainDomain: string | undefined,
  watermarks: readonly ChainWatermark[],
): OnchainRefund | undefined {
  for (const family of familyList) {
    const view = family.refundView?.(orderId, loaded, chainDomain, watermarks);
    if (view) return view;
  }
  return undefined;
}

/** The family envelope a lane's signature is, if a family has its own (a scheme of the lane table's otherwise). */
export function openForEnvelopeOf(signature: LaneFacts["signature"]): OpenForEnvelope | undefined {
  return familyList.find((family) => family.openForEnvelope?.signature === signature)?.openForEnvelope;
}
