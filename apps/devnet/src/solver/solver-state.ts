import {
  addressToBytes32,
  type DevnetAccount,
  type DevnetChain,
  type DevnetManifest,
  type DevnetSolanaAccount,
  inputSettlerEscrowAbi,
  type StandardOrder,
} from "@hub/chain";
import { type Clock, systemClock } from "@hub/clock";
import { type Address, getAbiItem, type Hex } from "viem";
import type { OrderStatus } from "../aggregator/oif-order.js";
import type { OifOrder, SolverQuote } from "../aggregator/oif-quote.js";
import type { LogCursor } from "../create-log-cursor.js";
import type { FaultKnobs } from "../faults/fault-knobs.js";
import { orderMoves } from "./order-moves.js";
import type { TokenDomain } from "./order-payloads.js";
import { createSolanaFiller, type SolanaOutputTarget } from "./solana-output-fill.js";
import { createSolanaSourceOrders, type SolanaSourceOrders } from "./solana-source-order.js";
import type { SolanaSourceDeps } from "./solana-source-quote.js";
import { createSolverChainClients, type SolverChainClient } from "./solver-chain-clients.js";

export interface SolverConfig {
  id: string;
  name?: string;
  /** The solver's own funded key (one of manifest.solvers). */
  account: DevnetAccount;
  /** The solver's Solana key (one of manifest.solana.solvers): it pays and sends fills of Solana outputs. */
  solanaAccount?: DevnetSolanaAccount;
  manifest: DevnetManifest;
  /** Price: the output is the input less this many basis points. */
  spreadBps: number;
  /** Added before every quote answer: how slow this solver is to quote. */
  quoteLatencyMs?: number;
  /** The eta the solver announces, in seconds. */
  etaSeconds?: number;
  /** How long a quote stays valid (its validUntil); 30 by default, the spec's quote lifetime. */
  quoteValiditySeconds?: number;
  fillDeadlineSeconds?: number;
  expiresSeconds?: number;
  /** Period of the background work loop. */
  pollIntervalMs?: number;
  clock?: Clock;
  faults?: FaultKnobs;
  logger?: { warn(fields: object, message: string): void };
  /** The Solana chain, its escrow and the solver's Solana key (manifest.solana.solvers[i]): Solana → EVM orders. */
  solana?: SolanaSourceDeps;
}

export interface StoredQuote {
  quoteId: string;
  orderType: OifOrder["type"];
  order: StandardOrder;
  orderId: Hex;
  validUntil: number;
  origin: DevnetChain;
  /** The EVM destination; absent when the output is paid on Solana (`solana`). */
  destination?: DevnetChain;
  solana?: SolanaOutputTarget;
  preview: SolverQuote["preview"];
}

export interface OrderRecord {
  orderId: Hex;
  quote: StoredQuote;
  signature?: Hex;
  status: OrderStatus;
  createdAt: number;
  updatedAt: number;
  openTx?: Hex;
  /** A transaction hash, or a Solana signature for a Solana output. */
  fillTx?: string;
  fillTimestamp?: number;
  claimTx?: Hex;
}

export const openEvent = getAbiItem({ abi: inputSettlerEscrowAbi, name: "Open" });

/** What every part of one solver shares: its settings, chain clients, quotes and orders. */
export interface SolverState {
  config: SolverConfig;
  clock: Clock;
  quoteValiditySeconds: number;
  fillDeadlineSeconds: number;
  expiresSeconds: number;
  pollIntervalMs: number;
  etaSeconds: number;
  solverAddress: Address;
  solverBytes32: Hex;
  quotes: Map<string, StoredQuote>;
  orders: Map<string, OrderRecord>;
  /**
   * Every order this solver quoted, by on-chain order id, until its fill deadline: an Open of one of
   * them is filled even when no registration arrives (spec: a refused registration is still filled).
   */
  quotedOrders: Map<Hex, StoredQuote>;
  openCursors: Map<number, LogCursor<typeof openEvent>>;
  tokenDomains: Map<string, TokenDomain>;
  tokenMeta: Map<string, { symbol: string; decimals: number }>;
  decimalsByToken: Map<string, number>;
  solanaFiller: ReturnType<typeof createSolanaFiller> | undefined;
  solanaSource: SolanaSourceOrders | undefined;
  /** Whether the work loop runs; a tick stops between orders once it is false. */
  running: boolean;
  nowSeconds(): number;
  client(chainId: number | bigint): SolverChainClient;
  /** The latest of the wall clock and the chains' head block times, in seconds. */
  chainSeconds(...chains: DevnetChain[]): Promise<number>;
  move: ReturnType<typeof orderMoves>["move"];
  fail: ReturnType<typeof orderMoves>["fail"];
}

export function createSolverState(config: SolverConfig): SolverState {
  const clock = config.clock ?? systemClock;
  const clients = createSolverChainClients(config.manifest, config.account);
  const nowSeconds = () => Math.floor(clock.now() / 1000);
  const client = (chainId: number | bigint): SolverChainClient => {
    const found = clients.get(Number(chainId));
    if (!found) throw new Error(`no client for chain ${chainId}`);
    return found;
  };
  const state: SolverState = {
    config,
    clock,
    quoteValiditySeconds: config.quoteValiditySeconds ?? 30,
    fillDeadlineSeconds: config.fillDeadlineSeconds ?? 300,
    expiresSeconds: config.expiresSeconds ?? 600,
    pollIntervalMs: config.pollIntervalMs ?? 1000,
    etaSeconds: config.etaSeconds ?? 60,
    solverAddress: config.account.address,
    solverBytes32: addressToBytes32(config.account.address),
    quotes: new Map(),
    orders: new Map(),
    quotedOrders: new Map(),
    openCursors: new Map(),
    tokenDomains: new Map(),
    tokenMeta: new Map(),
    decimalsByToken: new Map(),
    solanaFiller:
      config.manifest.solana && config.solanaAccount
        ? createSolanaFiller({ rpcUrl: config.manifest.solana.rpcUrl, account: config.solanaAccount })
        : undefined,
    solanaSource: undefined,
    running: false,
    nowSeconds,
    client,
    async chainSeconds(...chains) {
      const blocks = await Promise.all(chains.map((c) => client(c.chainId).publicClient.getBlock()));
      return Math.max(nowSeconds(), ...blocks.map((b) => Number(b.timestamp)));
    },
    ...orderMoves(nowSeconds),
  };
  if (config.solana) {
    state.solanaSource = createSolanaSourceOrders({
      id: config.id,
      ...(config.name !== undefined ? { name: config.name } : {}),
      manifest: config.manifest,
      solana: config.solana,
      spreadBps: config.spreadBps,
      etaSeconds: state.etaSeconds,
      quoteValiditySeconds: state.quoteValiditySeconds,
      fillDeadlineSeconds: state.fillDeadlineSeconds,
      expiresSeconds: state.expiresSeconds,
      clock,
      ...(config.faults ? { faults: config.faults } : {}),
      client,
    });
  }
  return state;
}
