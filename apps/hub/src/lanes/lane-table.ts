import type { Lane } from "@hub/contract";

/** The OIF order types a provider can be asked for; each one is a lane of the hub. */
export const oifProducts = ["oif-escrow-v0", "oif-3009-v0", "oif-svm-escrow-v0"] as const;

/** One OIF order type. */
export type OifProduct = (typeof oifProducts)[number];

/** Everything the hub decides by a winner's lane. */
export interface LaneFacts {
  /** How a winner completes: POST /order/openfor, POST /order, or not at all. */
  submission: "openfor" | "order" | "none";
  /** Whether the hub compiles executionTx and the user opens the escrow order through the user proxy. */
  proxy: boolean;
  /** Rank among equal offers, 1 first. */
  rank: number;
  /** What POST /order/openfor takes as signature: a scheme, nothing (omitted), or it refuses the lane. */
  signature: "permit2" | "eip3009" | "solana-envelope" | "omitted" | "not-taken";
  /** The status view that follows an order: the upstream's, the hub's deposit tracking, a recorded one, none. */
  statusView: "upstream" | "hub-deposit" | "hub-recorded" | "none";
  /** The provider kind whose quote round serves the lane; none: quote rounds do not serve it. */
  provider: "oif" | "proxy" | "external" | "none";
  /** The least validity a winner needs left: the signing window, or the open flow's (two transactions first). */
  validity: "signing-window" | "open-flow-window";
  /** The OIF order type that carries the lane and the scheme the upstream is asked for (originSubmission). */
  oif: { product: OifProduct; scheme: "permit2" | "eip3009" | "ed25519" } | null;
}

/**
 * The one list of lanes in the hub. Ranks: EIP-3009 needs no Permit2 approval; a signature lane costs
 * the user no gas; a proxy lane is one transaction; the open flow is the user's transactions and a
 * signature; winners that cannot be completed come last. The proxy lanes ask for a Permit2 escrow order
 * like oif-escrow-gasless, but the user opens it through the user proxy, so nothing is signed.
 */
export const laneTable = {
  "aggregator-gasless": {
    submission: "openfor",
    proxy: false,
    rank: 1,
    signature: "eip3009",
    statusView: "upstream",
    provider: "oif",
    validity: "signing-window",
    oif: { product: "oif-3009-v0", scheme: "eip3009" },
  },
  "oif-escrow-gasless": {
    submission: "openfor",
    proxy: false,
    rank: 2,
    signature: "permit2",
    statusView: "upstream",
    provider: "oif",
    validity: "signing-window",
    oif: { product: "oif-escrow-v0", scheme: "permit2" },
  },
  "oif-escrow-nonevm": {
    submission: "openfor",
    proxy: false,
    rank: 3,
    signature: "solana-envelope",
    statusView: "upstream",
    provider: "oif",
    validity: "signing-window",
    oif: { product: "oif-svm-escrow-v0", scheme: "ed25519" },
  },
  "oif-wrap-native": {
    submission: "openfor",
    proxy: true,
    rank: 4,
    signature: "omitted",
    statusView: "upstream",
    provider: "proxy",
    validity: "signing-window",
    oif: { product: "oif-escrow-v0", scheme: "permit2" },
  },
  "oif-swap-token": {
    submission: "openfor",
    proxy: true,
    rank: 5,
    signature: "omitted",
    statusView: "upstream",
    provider: "proxy",
    validity: "signing-window",
    oif: { product: "oif-escrow-v0", scheme: "permit2" },
  },
  "open-flow": {
    submission: "order",
    proxy: false,
    rank: 6,
    signature: "not-taken",
    statusView: "hub-deposit",
    provider: "external",
    validity: "open-flow-window",
    oif: null,
  },
  "solver-swap": {
    submission: "order",
    proxy: false,
    rank: 7,
    signature: "not-taken",
    statusView: "hub-recorded",
    provider: "external",
    validity: "signing-window",
    oif: null,
  },
  transfer: {
    submission: "none",
    proxy: false,
    rank: 8,
    signature: "not-taken",
    statusView: "none",
    provider: "external",
    validity: "signing-window",
    oif: null,
  },
} as const satisfies Record<Lane, LaneFacts>;

type Table = typeof laneTable;

/** The lanes an OIF aggregator is asked for (the signature lanes and the proxy lanes). */
export type OifLane = { [L in Lane]: Table[L]["oif"] extends null ? never : L }[Lane];

/** The OIF lanes of an EVM source: the user signs EIP-712 typed data or opens the order through the proxy. */
export type EvmOifLane = Exclude<OifLane, "oif-escrow-nonevm">;

/** The lanes on which the user opens the escrow order through the user proxy. */
export type ProxyLane = { [L in Lane]: Table[L]["proxy"] extends true ? L : never }[Lane];

/** The lanes an external aggregator's winner takes. */
export type ExternalLane = { [L in Lane]: Table[L]["provider"] extends "external" ? L : never }[Lane];

/** The lanes POST /order registers. */
export type RegistrableLane = { [L in Lane]: Table[L]["submission"] extends "order" ? L : never }[Lane];

const lanes = Object.keys(laneTable) as Lane[];

/** The OIF lanes of an EVM source the escrow takes directly, best first (a Solana source has its own). */
export const signatureOifLanes = lanes
  .filter((lane) => laneTable[lane].provider === "oif" && laneTable[lane].oif?.scheme !== "ed25519")
  .sort((a, b) => laneTable[a].rank - laneTable[b].rank) as EvmOifLane[];

/** Whether a winner on the lane completes through POST /order/openfor. */
export function completesOnOpenFor(lane: Lane): boolean {
  return laneTable[lane].submission === "openfor";
}

/** Whether the lane is a proxy lane. */
export function isProxyLane(lane: Lane): lane is ProxyLane {
  return laneTable[lane].proxy;
}

/** Whether an upstream order type is one of ours (some lane is carried by it). */
export function isOifProduct(product: unknown): boolean {
  return lanes.some((lane) => laneTable[lane].oif?.product === product);
}

/** Every OIF lane is an OIF escrow lane: the input locked in the OIF escrow, a solver fills the output. */
export const OIF_ESCROW_EXECUTION_CLASS = "OIF_ESCROW";
