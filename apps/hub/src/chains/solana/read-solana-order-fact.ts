import { solanaKeyToBytes32 } from "@hub/chain";
import type { SolanaOrderFact } from "../../store/solana-order-fact.js";
import type { SolanaTransactionView } from "./solana-chain-reader.js";

export type { SolanaOrderFact };

const TOKEN_PROGRAM = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
const MEMO_PROGRAMS = new Set([
  "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr",
  "Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo",
]);
const TRANSFER_CHECKED = 12;
const ORDER_ID = "0x[0-9a-f]{64}";
const DEPOSIT_MEMO = new RegExp(`^(${ORDER_ID})$`);
const SETTLE_MEMO = new RegExp(`^(release|refund):(${ORDER_ID})$`);
const FILL_MEMO = new RegExp(`^fill:(${ORDER_ID}):(0x[0-9a-f]{40})$`);

/** The escrow accounts a chain's transactions are judged against. */
export interface SolanaEscrowAccounts {
  settler: string;
  /** The account Solana outputs name as settler and oracle (base58), and the chain's OIF chain id. */
  outputSettler: string;
  oifChainId: string;
  /** vault token account → its mint. */
  vaults: ReadonlyMap<string, string>;
}

interface TransferChecked {
  source: string;
  mint: string;
  destination: string;
  authority: string;
  amount: bigint;
}

function transferChecked(
  instruction: SolanaTransactionView["instructions"][number],
): TransferChecked | undefined {
  const { data, accounts } = instruction;
  if (instruction.programId !== TOKEN_PROGRAM || data.length !== 10 || data[0] !== TRANSFER_CHECKED)
    return undefined;
  const [source, mint, destination, authority] = accounts;
  if (!source || !mint || !destination || !authority) return undefined;
  const amount = new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(1, true);
  return { source, mint, destination, authority, amount };
}

/**
 * The order fact a landed transaction carries, or undefined: the memo names it (the order id alone for
 * a deposit, `release:`/`refund:` for the settler's payouts, `fill:<orderId>:<EVM solver>` for a fill)
 * and exactly one transferChecked moves the tokens: into a vault (deposit), out of a vault by the
 * settler (release, refund), or anywhere (fill). Failed transactions carry nothing.
 */
export function readSolanaOrderFact(
  tx: SolanaTransactionView,
  escrow: SolanaEscrowAccounts,
): SolanaOrderFact | undefined {
  if (tx.failed) return undefined;
  const memos = tx.instructions
    .map((instruction, index) => ({ instruction, index }))
    .filter(({ instruction }) => MEMO_PROGRAMS.has(instruction.programId));
  const transfers = tx.instructions.flatMap((instruction) => transferChecked(instruction) ?? []);
  if (memos.length !== 1 || transfers.length !== 1) return undefined;
  const memo = memos[0] as (typeof memos)[number];
  const transfer = transfers[0] as TransferChecked;
  const text = new TextDecoder("utf-8", { fatal: false }).decode(memo.instruction.data);
  const ownerOf = (account: string) =>
    tx.postTokenBalances.find((balance) => balance.account === account)?.owner;
  const base = {
    signature: tx.signature,
    slot: tx.slot,
    blockTime: tx.blockTime,
    instructionIndex: memo.index,
    mint: transfer.mint,
    amount: transfer.amount.toString(),
    authority: transfer.authority,
    destination: transfer.destination,
  };
  const deposit = DEPOSIT_MEMO.exec(text);
  if (deposit) {
    if (escrow.vaults.get(transfer.destination) !== transfer.mint) return undefined;
    return {
      ...base,
      kind: "deposit",
      onchainOrderId: deposit[1] as string,
      destinationOwner: escrow.settler,
    };
  }
  const settle = SETTLE_MEMO.exec(text);
  if (settle) {
    const owner = ownerOf(transfer.destination);
    if (
      escrow.vaults.get(transfer.source) !== transfer.mint ||
      transfer.authority !== escrow.settler ||
      !owner
    )
      return undefined;
    return {
      ...base,
      kind: settle[1] as "release" | "refund",
      onchainOrderId: settle[2] as string,
      destinationOwner: owner,
    };
  }
  const fill = FILL_MEMO.exec(text);
  if (fill) {
    const owner = ownerOf(transfer.destination);
    if (!owner) return undefined;
    return {
      ...base,
      kind: "fill",
      onchainOrderId: fill[1] as string,
      destinationOwner: owner,
      evmSolver: fill[2] as string,
      output: {
        oracle: solanaKeyToBytes32(escrow.outputSettler),
        settler: solanaKeyToBytes32(escrow.outputSettler),
        chainId: escrow.oifChainId,
        token: solanaKeyToBytes32(transfer.mint),
        amount: transfer.amount.toString(),
        recipient: solanaKeyToBytes32(owner),
        callbackData: "0x",
        context: "0x",
      },
    };
  }
  return undefined;
}
