import { solanaEscrowOrderId as sharedSolanaEscrowOrderId } from "@hub/chain";
import { type Address, address, createNoopSigner, type Instruction } from "@solana/kit";
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from "@solana-program/token";
import { compileV0Transaction } from "./compile-v0-transaction.js";
import { memoProgramAddress, type SolanaChain, type SolanaTransactionRecord } from "./solana-chain.js";
import type { SolanaKeypair } from "./solana-keypair.js";
import { sendDevnetTransaction } from "./send-devnet-transaction.js";

/** The terms of an order whose input is held by the Solana escrow. */
export interface SolanaEscrowOrder {
  /** The user: the owner who deposits, and the only one a refund pays. */
  user: Address;
  mint: Address;
  amount: bigint;
  /** Unix seconds after which an unreleased deposit may be refunded (judged on the chain's clock). */
  expires: number;
  /** A random u64 the quoting solver draws, so two quotes of otherwise equal terms are two orders. */
  nonce: bigint;
  /** 32-byte commitment (0x hex) to what the solver must deliver on the destination. */
  outputHash: `0x${string}`;
}

export type SolanaEscrowState = "unknown" | "awaiting-deposit" | "deposited" | "released" | "refunded";

export interface SolanaEscrowDeposit {
  signature: string;
  slot: number;
  /** The token account the input came from. */
  source: Address;
}

export interface SolanaEscrow {
  settler: Address;
  /** The vault token account of a mint (the settler's associated token account). */
  vault(mint: Address): Promise<Address>;
  /**
   * Records an order's terms and answers its on-chain order id (what the deposit's memo carries);
   * throws `already-registered` for an id already recorded, as a program would refuse it.
   */
  register(order: SolanaEscrowOrder): `0x${string}`;
  /** The terms registered under an order id, or undefined. */
  order(orderId: string): SolanaEscrowOrder | undefined;
  deposit(orderId: string): Promise<SolanaEscrowDeposit | undefined>;
  state(orderId: string): Promise<SolanaEscrowState>;
  /** Pays the deposit to the solver's token account; call once the fill is proven. Answers the signature. */
  release(orderId: string, solver: Address): Promise<string>;
  /** Pays the deposit back to the user's token account, only after expiry. Answers the signature. */
  refund(orderId: string): Promise<string>;
  /**
   * Refunds every registered order that is deposited, unreleased and past its expiry; answers their ids.
   * An order past its expiry without a deposit is looked at once and then no more.
   */
  refundExpired(): Promise<string[]>;
}

export class SolanaEscrowError extends Error {
  constructor(
    readonly reason:
      | "unknown-order"
      | "already-registered"
      | "no-deposit"
      | "already-settled"
      | "not-expired",
    message: string,
  ) {
    super(message);
    this.name = "SolanaEscrowError";
  }
}

const transferCheckedDiscriminator = 12;

/** The on-chain order id: sha256 over the order's terms, as 0x hex (`@hub/chain`). */
export function solanaEscrowOrderId(order: SolanaEscrowOrder): `0x${string}` {
  return sharedSolanaEscrowOrderId(order);
}

/** One memo as a transaction's `memo` field shows it: "[<bytes>] <text>". */
function memoField(text: string): string {
  return `[${Buffer.byteLength(text)}] ${text}`;
}

export function memoInstruction(text: string): Instruction {
  return { programAddress: memoProgramAddress, data: new TextEncoder().encode(text) };
}

/**
 * The two instructions of a deposit, in order: transferChecked of `amount` from the user's token
 * account to the vault (the user signs as owner), then a Memo carrying the order id.
 */
export function solanaDepositInstructions(input: {
  user: Address;
  source: Address;
  mint: Address;
  decimals: number;
  vault: Address;
  amount: bigint;
  orderId: string;
}): Instruction[] {
  return [
    getTransferCheckedInstruction({
      source: input.source,
      mint: input.mint,
      destination: input.vault,
      authority: createNoopSigner(input.user),
      amount: input.amount,
      decimals: input.decimals,
    }),
    memoInstruction(input.orderId),
  ];
}

/**
 * The deposit as an unsigned v0 transaction whose fee payer is the solver: the user signs its message
 * (`messageBytes`), the solver adds its own signature and sends it.
 */
export function compileSolanaDeposit(
  input: Parameters<typeof solanaDepositInstructions>[0] & {
    feePayer: Address;
    lifetime: { blockhash: string; lastValidBlockHeight: bigint };
  },
) {
  const { feePayer, lifetime, ...deposit } = input;
  return compileV0Transaction(feePayer, lifetime, solanaDepositInstructions(deposit));
}

/** The deposit a landed transaction makes, if it is exactly transferChecked to `vault` plus a Memo. */
export function readSolanaDeposit(
  record: SolanaTransactionRecord,
  vault: Address,
):
  | { source: Address; mint: Address; authority: Address; amount: bigint; decimals: number; memo: string }
  | undefined {
  const tx = record.transaction;
  if (record.err !== null || tx.instructions.length !== 2) return undefined;
  const [transfer, memo] = tx.instructions as [(typeof tx.instructions)[0], (typeof tx.instructions)[0]];
  const key = (index: number | undefined) => (index === undefined ? undefined : tx.accountKeys[index]);
  if (
    key(transfer.programIdIndex) !== TOKEN_PROGRAM_ADDRESS ||
    key(memo.programIdIndex) !== memoProgramAddress
  )
    return undefined;
  if (
    transfer.data.length !== 10 ||
    transfer.data[0] !== transferCheckedDiscriminator ||
    transfer.accounts.length !== 4
  )
    return undefined;
  if (key(transfer.accounts[2]) !== vault) return undefined;
  const view = new DataView(transfer.data.buffer, transfer.data.byteOffset, transfer.data.byteLength);
  return {
    source: address(key(transfer.accounts[0])!),
    mint: address(key(transfer.accounts[1])!),
    authority: address(key(transfer.accounts[3])!),
    amount: view.getBigUint64(1, true),
    decimals: transfer.data[9]!,
    memo: new TextDecoder().decode(memo.data),
  };
}

/**
 * The devnet's Solana escrow: a vault token account per mint owned by the settler authority, whose
 * code (not a program) enforces the order's rules before it signs a release or a refund.
 */
export function createSolanaEscrow(config: { chain: SolanaChain; settler: SolanaKeypair }): SolanaEscrow {
  const { chain, settler } = config;
  const orders = new Map<string, SolanaEscrowOrder>();
  // Registered orders not yet released or refunded: what refundExpired looks at.
  const unsettled = new Set<string>();
  const vaults = new Map<string, Promise<Address>>();
  const settling = new Set<string>();

  function vault(mint: Address): Promise<Address> {
    let found = vaults.get(mint);
    if (!found) {
      found = findAssociatedTokenPda({
        owner: settler.address,
        mint,
        tokenProgram: TOKEN_PROGRAM_ADDRESS,
      }).then(([pda]) => pda);
      vaults.set(mint, found);
    }
    return found;
  }

  async function history(orderId: string) {
    const order = orders.get(orderId);
    if (!order) return undefined;
    const vaultAddress = await vault(order.mint);
    const records = chain.signaturesForAddress(vaultAddress, { limit: Number.MAX_SAFE_INTEGER }).reverse();
    let deposit: SolanaEscrowDeposit | undefined;
    let settled: "released" | "refunded" | undefined;
    for (const record of records) {
      const read = readSolanaDeposit(record, vaultAddress);
      if (
        !deposit &&
        read &&
        read.memo === orderId &&
        read.authority === order.user &&
        read.mint === order.mint &&
        read.amount === order.amount
      )
        deposit = { signature: record.signature, slot: record.slot, source: read.source };
      if (record.err === null && record.transaction.accountKeys[0] === settler.address) {
        if (record.memo === memoField(`release:${orderId}`)) settled = "released";
        if (record.memo === memoField(`refund:${orderId}`)) settled = "refunded";
      }
    }
    return { order, vault: vaultAddress, deposit, settled };
  }

  async function payOut(
    orderId: string,
    kind: "release" | "refund",
    owner: (order: SolanaEscrowOrder) => Address,
  ): Promise<string> {
    if (settling.has(orderId))
      throw new SolanaEscrowError("already-settled", `order ${orderId} is being settled`);
    settling.add(orderId);
    try {
      const found = await history(orderId);
      if (!found) throw new SolanaEscrowError("unknown-order", `no order ${orderId}`);
      if (!found.deposit)
        throw new SolanaEscrowError("no-deposit", `order ${orderId} has no deposit in the vault`);
      if (found.settled)
        throw new SolanaEscrowError("already-settled", `order ${orderId} is already ${found.settled}`);
      if (kind === "refund" && chain.unixTimestamp() < found.order.expires)
        throw new SolanaEscrowError(
          "not-expired",
          `order ${orderId} expires at ${found.order.expires}, the chain is at ${chain.unixTimestamp()}`,
        );
      const payee = owner(found.order);
      const [destination] = await findAssociatedTokenPda({
        owner: payee,
        mint: found.order.mint,
        tokenProgram: TOKEN_PROGRAM_ADDRESS,
      });
      const settlerSigner = createNoopSigner(settler.address);
      const record = sendDevnetTransaction(chain, settler, [
        getCreateAssociatedTokenIdempotentInstruction({
          payer: settlerSigner,
          ata: destination,
          owner: payee,
          mint: found.order.mint,
        }),
        getTransferCheckedInstruction({
          source: found.vault,
          mint: found.order.mint,
          destination,
          authority: settlerSigner,
          amount: found.order.amount,
          decimals: chain.tokenDecimals(found.order.mint),
        }),
        memoInstruction(`${kind}:${orderId}`),
      ]);
      unsettled.delete(orderId);
      return record.signature;
    } finally {
      settling.delete(orderId);
    }
  }

  return {
    settler: settler.address,
    vault,
    register(order) {
      const orderId = solanaEscrowOrderId(order);
      if (orders.has(orderId))
        throw new SolanaEscrowError("already-registered", `order ${orderId} is already registered`);
      orders.set(orderId, order);
      unsettled.add(orderId);
      return orderId;
    },
    order: (orderId) => orders.get(orderId.toLowerCase()),
    deposit: async (orderId) => (await history(orderId))?.deposit,
    async state(orderId) {
      const found = await history(orderId);
      if (!found) return "unknown";
      return found.settled ?? (found.deposit ? "deposited" : "awaiting-deposit");
    },
    release: (orderId, solver) => payOut(orderId, "release", () => solver),
    refund: (orderId) => payOut(orderId, "refund", (order) => order.user),
    async refundExpired() {
      const refunded: string[] = [];
      for (const orderId of [...unsettled]) {
        if (chain.unixTimestamp() < orders.get(orderId)!.expires || settling.has(orderId)) continue;
        const found = await history(orderId);
        // Settled, or expired with no deposit: forgotten. A deposit landing after expiry is not looked
        // for, as a program would refuse it (the quoted message's blockhash is long invalid by then).
        if (!found?.deposit || found.settled) {
          unsettled.delete(orderId);
          continue;
        }
        try {
          await payOut(orderId, "refund", (order) => order.user);
          refunded.push(orderId);
        } catch (error) {
          // Settled meanwhile by another caller: nothing left to refund.
          if (!(error instanceof SolanaEscrowError && error.reason === "already-settled")) throw error;
        }
      }
      return refunded;
    },
  };
}
