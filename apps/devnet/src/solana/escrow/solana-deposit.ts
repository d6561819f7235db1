import { type Address, address, createNoopSigner, type Instruction } from "@solana/kit";
import { getTransferCheckedInstruction, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import type { SolanaTransactionRecord } from "../chain/solana-transaction-record.js";
import { memoProgramAddress } from "../chain/transaction-memo.js";
import { compileV0Transaction } from "../compile-v0-transaction.js";

const transferCheckedDiscriminator = 12;

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
  const [source, mint, to, authority] = transfer.accounts.map(key);
  if (to !== vault || source === undefined || mint === undefined || authority === undefined) return undefined;
  const view = new DataView(transfer.data.buffer, transfer.data.byteOffset, transfer.data.byteLength);
  return {
    source: address(source),
    mint: address(mint),
    authority: address(authority),
    amount: view.getBigUint64(1, true),
    decimals: view.getUint8(9),
    memo: new TextDecoder().decode(memo.data),
  };
}
