import type { Catalog, OnchainRefund } from "@hub/contract";
import type { LaneFacts } from "../lanes/lane-table.js";
import type { ReadinessCheck } from "../metrics/readiness.js";
import type { ChainIndexer } from "./chain-indexer.js";
import type { ChainStaleness } from "./chain-staleness.js";
import type { ChainIndexState } from "./chain-progress.js";
import type { ChainFacts } from "../status-rules/chain-facts.js";
import type { ChainView } from "../status-rules/derive-chain-view.js";
import type { ChainFactsStore, ChainWatermark } from "../store/chain-facts-store.js";

/** An order's indexed facts and the view derived from them (onchain-views' LoadedChainView). */
export interface FamilyChainView {
  facts: ChainFacts;
  view: ChainView;
}

/** A chain family as the catalog groups its chains (`families.evm`, …). */
export type ChainFamilyName = keyof Catalog["families"];

/** What a family's readiness probes read besides the chain itself. */
export interface ChainReadinessContext {
  /** The reconciler's watermarks; absent without a database (then only the RPC is probed). */
  watermarks?: Pick<ChainFactsStore, "getWatermark">;
  staleness?: ChainStaleness | undefined;
  /** The lag past which a chain is not ready, in the family's unit: blocks, or slots. */
  maxLag: { blocks: number; slots: number };
  /** This replica's reconciler state of a chain, when it runs one. */
  stateOf(chainDomain: string): ChainIndexState | undefined;
}

/** A signature a lane's user makes with the family's own keys, as POST /order/openfor takes it. */
export interface OpenForEnvelope {
  /** The lane table's name for it (`LaneFacts["signature"]`). */
  signature: LaneFacts["signature"];
  /** The envelope as forwarded upstream; refuses EIN0001 on `signature` when it is not one. */
  normalise(value: string): string;
  /** The envelope checked against the stored quote's template before anything is reserved (EIN0001). */
  verify(template: Record<string, unknown>, value: string): void;
}

/** The one output an order paying on a route's destination must carry (bytes32), and how the route names each part. */
export interface ExpectedOutput {
  chainId: bigint;
  token: `0x${string}`;
  settler: `0x${string}`;
  oracle: `0x${string}`;
  recipient: `0x${string}`;
  names: { chain: string; token: string; recipient: string };
}

/** How OIF names and checks an account, asset and output on the family's chains, for one side of a route. */
export interface OifChainForm<RouteEnd> {
  /** The ERC-7930 interop address of an account on the route's end, and of the end's asset. */
  interop(end: RouteEnd, account: string): { account: string; asset: string };
  /** The output an order paying on the end to the recipient must carry. */
  expectedOutput(end: RouteEnd, recipient: string): ExpectedOutput;
  /**
   * An account an EIP-3009 order's metadata output names on the end in the family's own form, as
   * bytes32; a refusal's reason, or undefined when the value is not in that form (then bytes32 hex is
   * read). Absent: the EVM reading of the lane's own metadata.
   */
  outputAccount?(value: unknown, end: RouteEnd): `0x${string}` | { refusal: string } | undefined;
}

/**
 * What the hub needs from one chain family: the reconciler's indexer of each of its chains, the OIF
 * form of its accounts, readiness, the views' family-specific facts, and what a user signs. One
 * implementation per folder under chains/, listed in chain-families.ts by the catalog's family.
 */
export interface ChainFamily<
  IndexedChain extends { chainDomain: string },
  RouteEnd = unknown,
  IndexOptions = object,
> {
  readonly name: ChainFamilyName;
  /** The reconciler's indexer of one of the family's chains; the options are the family's own (its reader, limits). */
  indexer(chain: IndexedChain, options: IndexOptions): ChainIndexer;
  /** The OIF form of a route's side on the family's chains (requests and order vetting). */
  oif: OifChainForm<RouteEnd>;
  /** The /readyz checks of a chain the reconciler indexes: its RPC answers, the reconciler keeps up. */
  readinessChecks(chain: IndexedChain, context: ChainReadinessContext): ReadinessCheck[];
  /**
   * The refund view of an order whose open is the family's own fact rather than the EVM escrow's
   * Open, or undefined when its facts hold none (on chainDomain, when given).
   */
  refundView?(
    orderId: string,
    loaded: FamilyChainView,
    chainDomain: string | undefined,
    watermarks: readonly ChainWatermark[],
  ): OnchainRefund | undefined;
  /** The openfor envelope of the lanes whose user signs on this family's chain with its own keys. */
  openForEnvelope?: OpenForEnvelope;
}
