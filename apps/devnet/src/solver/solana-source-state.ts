import type { DevnetChain, DevnetManifest } from "@hub/chain";
import type { Clock } from "@hub/clock";
import type { Hex } from "viem";
import type { OrderStatus } from "../aggregator/oif-order.js";
import type { FaultKnobs } from "../faults/fault-knobs.js";
import { orderMoves } from "./order-moves.js";
import { type SolanaSourceDeps, type SolanaSourceQuote, solanaFillerData } from "./solana-source-quote.js";
import type { SolverChainClient } from "./solver-chain-clients.js";

export interface SolanaSourceConfig {
  id: string;
  name?: string;
  manifest: DevnetManifest;
  solana: SolanaSourceDeps;
  spreadBps: number;
  etaSeconds: number;
  quoteValiditySeconds: number;
  fillDeadlineSeconds: number;
  expiresSeconds: number;
  clock: Clock;
  faults?: FaultKnobs;
  /** The solver's EVM clients: the destination's fill is sent with the solver's EVM key. */
  client(chainId: number): SolverChainClient;
}

/** The preview the quote answered: both amounts are fixed by the quote. */
export interface SolanaSourcePreview {
  inputs: { user: string; asset: string; amount: string }[];
  outputs: { receiver: string; asset: string; amount: string }[];
}

export type StoredSolanaSourceQuote = SolanaSourceQuote & { preview: SolanaSourcePreview };

export interface SolanaSourceRecord {
  quote: StoredSolanaSourceQuote;
  envelope: string;
  /** The fully signed deposit transaction. */
  wire: Uint8Array;
  status: OrderStatus;
  createdAt: number;
  updatedAt: number;
  /** The deposit's signature once sent: this lane's open transaction. */
  openTx?: string;
  fillTx?: Hex;
  fillTimestamp?: number;
  /** The escrow's release to the solver. */
  claimTx?: string;
}

/** What the Solana-source side of one solver keeps: its live quotes and its orders by order id. */
export interface SolanaSourceState extends ReturnType<typeof orderMoves> {
  readonly config: SolanaSourceConfig;
  readonly quotes: Map<string, StoredSolanaSourceQuote>;
  readonly orders: Map<string, SolanaSourceRecord>;
  readonly fillerData: Hex;
  nowSeconds(): number;
}

export function createSolanaSourceState(config: SolanaSourceConfig): SolanaSourceState {
  const nowSeconds = () => Math.floor(config.clock.now() / 1000);
  return {
    config,
    quotes: new Map(),
    orders: new Map(),
    fillerData: solanaFillerData(config.solana.keypair),
    nowSeconds,
    ...orderMoves(nowSeconds),
  };
}

/** The signature of the deposit the order sent; an order past "created" has one. */
export function sentDeposit(record: SolanaSourceRecord): string {
  if (record.openTx === undefined)
    throw new Error(`order ${record.quote.escrowOrder.orderId} sent no deposit`);
  return record.openTx;
}

export async function blockSeconds(state: SolanaSourceState, chain: DevnetChain): Promise<number> {
  return Number((await state.config.client(chain.chainId).publicClient.getBlock()).timestamp);
}
