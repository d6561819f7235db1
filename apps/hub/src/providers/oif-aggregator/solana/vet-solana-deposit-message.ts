import { solanaMessageDigest } from "@hub/chain";
import {
  decodeSolanaMessage,
  SOLANA_MESSAGE_MAX_BYTES,
  type SolanaCompiledInstruction,
  type SolanaCompiledMessage,
} from "../../../chains/solana/decode-solana-message.js";
import { QuoteRejection } from "../../../quotes/quote-rejection.js";

/** SPL Token (not Token-2022): the program the transferChecked must call. */
export const TOKEN_PROGRAM = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
/** SPL Memo v2. */
export const MEMO_PROGRAM = "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr";
const TRANSFER_CHECKED = 12;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** What the deposit message must do, as the escrow order and the route say. */
export interface ExpectedDeposit {
  feePayer: string;
  sender: string;
  /** ATA(sender, mint). */
  sourceTokenAccount: string;
  mint: string;
  /** The catalog's escrow vault of the mint. */
  vault: string;
  amount: bigint;
  decimals: number;
  /** The memo: the escrow order id. */
  orderId: string;
}

function uint64LittleEndian(bytes: Uint8Array, offset: number): bigint {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getBigUint64(offset, true);
}

function decodeDepositMessage(transactionMessage: unknown): {
  text: string;
  bytes: Uint8Array;
  message: SolanaCompiledMessage;
} {
  if (
    typeof transactionMessage !== "string" ||
    transactionMessage.length > Math.ceil(SOLANA_MESSAGE_MAX_BYTES / 3) * 4 ||
    !BASE64.test(transactionMessage)
  ) {
    throw new QuoteRejection("message", "transactionMessage is not standard base64 of at most 1232 bytes");
  }
  const bytes = new Uint8Array(Buffer.from(transactionMessage, "base64"));
  const message = decodeSolanaMessage(bytes);
  if (message.lookupTableCount !== 0) throw new QuoteRejection("message", "the message uses lookup tables");
  if (message.requiredSignatures !== 2 || message.readonlySigned > 1) {
    throw new QuoteRejection(
      "message",
      `header asks ${message.requiredSignatures} signatures (${message.readonlySigned} read-only)`,
    );
  }
  return { text: transactionMessage, bytes, message };
}

function checkSigners(
  accounts: readonly string[],
  expected: ExpectedDeposit,
  instructionCount: number,
): void {
  if (accounts[0] !== expected.feePayer)
    throw new QuoteRejection("fee-payer", `the message's fee payer is ${accounts[0]}`);
  if (accounts[1] !== expected.sender)
    throw new QuoteRejection("user", `the message's second signer is ${accounts[1]}`);
  if (new Set(accounts).size !== accounts.length)
    throw new QuoteRejection("message", "an account is listed twice");
  if (instructionCount !== 2) {
    throw new QuoteRejection("instruction", `${instructionCount} instructions, not transferChecked and Memo`);
  }
}

function checkTransfer(
  transfer: SolanaCompiledInstruction,
  account: (index: number) => string,
  used: Set<number>,
  expected: ExpectedDeposit,
): void {
  if (account(transfer.programIndex) !== TOKEN_PROGRAM) {
    throw new QuoteRejection("instruction", `the first instruction calls ${account(transfer.programIndex)}`);
  }
  if (transfer.data.length !== 10 || transfer.data[0] !== TRANSFER_CHECKED) {
    throw new QuoteRejection("instruction", "the first instruction is not transferChecked");
  }
  if (transfer.accountIndices.length !== 4) {
    throw new QuoteRejection(
      "instruction",
      `transferChecked names ${transfer.accountIndices.length} accounts`,
    );
  }
  for (const index of transfer.accountIndices) used.add(index);
  const [source, mintAccount, destination, authority] = transfer.accountIndices.map(account) as [
    string,
    string,
    string,
    string,
  ];
  if (source !== expected.sourceTokenAccount) {
    throw new QuoteRejection("input", `transfer source ${source} is not the sender's token account`);
  }
  if (mintAccount !== expected.mint)
    throw new QuoteRejection("input", `transfer mint ${mintAccount} is not ${expected.mint}`);
  if (destination !== expected.vault) {
    throw new QuoteRejection("vault", `transfer destination ${destination} is not the catalog's vault`);
  }
  if (authority !== expected.sender)
    throw new QuoteRejection("user", `transfer authority ${authority} is not the sender`);
  const amount = uint64LittleEndian(transfer.data, 1);
  if (amount !== expected.amount) {
    throw new QuoteRejection("amount", `transfer of ${amount} is not the order's ${expected.amount}`);
  }
  if (transfer.data[9] !== expected.decimals) {
    throw new QuoteRejection("input", `transfer decimals ${transfer.data[9]} are not ${expected.decimals}`);
  }
}

function checkMemo(
  memo: SolanaCompiledInstruction,
  account: (index: number) => string,
  orderId: string,
): void {
  if (account(memo.programIndex) !== MEMO_PROGRAM) {
    throw new QuoteRejection("instruction", `the second instruction calls ${account(memo.programIndex)}`);
  }
  // Memo only checks that the accounts it names signed; the two signers are harmless there.
  if (memo.accountIndices.some((index) => index > 1)) {
    throw new QuoteRejection("instruction", "the memo names an account other than the signers");
  }
  if (Buffer.from(memo.data).toString("latin1") !== orderId) {
    throw new QuoteRejection("instruction", "the memo is not the order id");
  }
}

/**
 * The message is v0 with no lookup tables, two signers (fee payer, sender) and exactly
 * transferChecked(ATA(sender, mint) → the vault, the amount, the decimals, authority = sender) then
 * Memo(orderId), and nothing else among its accounts; the digest is its checksum. Throws at the first failure.
 */
export function vetSolanaDepositMessage(
  payload: Record<string, unknown>,
  expected: ExpectedDeposit,
): { transactionMessage: string; digest: string; recentBlockhash: string } {
  const { text: transactionMessage, bytes, message } = decodeDepositMessage(payload.transactionMessage);
  const { accounts } = message;
  checkSigners(accounts, expected, message.instructions.length);
  const account = (index: number): string => {
    const key = accounts[index];
    if (key === undefined) throw new QuoteRejection("message", `account index ${index} is out of range`);
    return key;
  };
  const used = new Set([0, 1]);
  const [transfer, memo] = message.instructions as [SolanaCompiledInstruction, SolanaCompiledInstruction];
  used.add(transfer.programIndex).add(memo.programIndex);
  checkTransfer(transfer, account, used, expected);
  checkMemo(memo, account, expected.orderId);
  if (used.size !== accounts.length)
    throw new QuoteRejection("message", "the message lists an unused account");
  const digest = solanaMessageDigest(bytes);
  if (payload.digest !== digest) throw new QuoteRejection("digest", `digest is not the message's ${digest}`);
  return { transactionMessage, digest, recentBlockhash: message.recentBlockhash };
}
