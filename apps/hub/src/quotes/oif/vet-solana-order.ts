import {
  decodeBase58,
  type MandateOutput,
  type SolanaEscrowOrder,
  solanaEscrowOrderId,
  solanaMessageDigest,
  solanaOutputHash,
} from "@hub/chain";
import { QuoteRejection } from "../quote-rejection.js";
import type { SolanaToEvmQuoteRoute } from "../resolve-quote-route.js";
import { checkAmounts, checkDeadlines, checkOutput, type QuoteTimes } from "./check-standard-order.js";
import { decodeSolanaMessage, SOLANA_MESSAGE_MAX_BYTES } from "./decode-solana-message.js";
import { readBytes32, readObject, readUint } from "./typed-data-values.js";
import { readOutput } from "./vet-permit2-order.js";

/** SPL Token (not Token-2022): the program the transferChecked must call. */
export const TOKEN_PROGRAM = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
/** SPL Memo v2. */
export const MEMO_PROGRAM = "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr";
const TRANSFER_CHECKED = 12;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** What vetting needs besides the answer: the solvers' declared fee payers and the sender's token account. */
export interface SolanaVettingFacts {
  /** The provider's `solanaFeePayers`: solver id → base58 key. */
  feePayers: Readonly<Record<string, string>> | undefined;
  /** ATA(sender, mint), derived once per round. */
  sourceTokenAccount: string;
}

/** What the user signs on oif-escrow-nonevm (the contract's SolanaSignPayload). */
export interface SolanaSignPayload {
  transactionMessage: string;
  digest: string;
  sender: string;
  feePayer: string;
}

/** A vetted oif-svm-escrow-v0 order: what the user signs and the escrow order it deposits into. */
export interface VettedSolanaOrder {
  signPayload: SolanaSignPayload;
  escrowOrder: SolanaEscrowOrder;
  fillDeadline: number;
  output: MandateOutput;
  /** The escrow order id (the deposit's memo), recomputed. */
  onchainOrderId: `0x${string}`;
  /** The message's recent blockhash; whether the chain still holds it valid is checked apart. */
  recentBlockhash: string;
}

function readKey(value: unknown, what: string, reason: "user" | "fee-payer" | "input"): string {
  if (typeof value !== "string" || decodeBase58(value)?.length !== 32) {
    throw new QuoteRejection(reason, `${what} is not a base58 Solana key: ${JSON.stringify(value)}`);
  }
  return value;
}

function readUnixSeconds(value: unknown, what: string): number {
  return Number(readUint(value, what, "deadlines", 32));
}

function uint64LittleEndian(bytes: Uint8Array, offset: number): bigint {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getBigUint64(offset, true);
}

/**
 * oif-svm-escrow-v0 (docs/decisions/solana-lane.md): the sender is sourceAccount, the fee payer the
 * solver's declared key and not the sender; the escrow order's user, mint and amount are the quote's;
 * the output is held like an EVM order's; outputHash and orderId (over the terms with the solver's
 * u64 nonce) are recomputed; the message is v0 with no lookup tables, two signers (fee payer, sender)
 * and exactly transferChecked(ATA(sender, mint) → the catalog's vault, the amount, the catalog's
 * decimals, authority = sender) then Memo(orderId), and nothing else among its accounts; the digest is
 * its checksum. Throws at the first failure.
 */
export function vetSolanaOrder(
  payloadValue: unknown,
  solverId: string,
  route: SolanaToEvmQuoteRoute,
  facts: SolanaVettingFacts,
  times: QuoteTimes,
): VettedSolanaOrder {
  const payload = readObject(payloadValue, "order.payload", "malformed");
  if (payload.signatureType !== "ed25519") {
    throw new QuoteRejection("types", `signatureType ${String(payload.signatureType)} on a Solana order`);
  }
  const sender = readKey(payload.sender, "sender", "user");
  if (sender !== route.user) throw new QuoteRejection("user", `sender ${sender} is not ${route.user}`);
  const feePayer = readKey(payload.feePayer, "feePayer", "fee-payer");
  const declared = facts.feePayers?.[solverId];
  if (declared === undefined) {
    throw new QuoteRejection("fee-payer", `solver ${solverId} has no declared Solana fee payer`);
  }
  if (feePayer !== declared || feePayer === sender) {
    throw new QuoteRejection("fee-payer", `feePayer ${feePayer} is not solver ${solverId}'s ${declared}`);
  }

  const escrow = readObject(payload.escrowOrder, "escrowOrder", "malformed");
  if (readKey(escrow.user, "escrowOrder.user", "user") !== sender) {
    throw new QuoteRejection("user", "escrowOrder.user is not the sender");
  }
  const mint = readKey(escrow.mint, "escrowOrder.mint", "input");
  if (mint !== route.source.mint) {
    throw new QuoteRejection("input", `escrowOrder.mint ${mint} is not ${route.source.mint}`);
  }
  const escrowOrder: SolanaEscrowOrder = {
    user: sender,
    mint,
    amount: readUint(escrow.amount, "escrowOrder.amount", "amount", 64),
    expires: readUnixSeconds(escrow.expires, "escrowOrder.expires"),
    nonce: readUint(escrow.nonce, "escrowOrder.nonce", "order-id", 64),
    outputHash: readBytes32(escrow.outputHash, "escrowOrder.outputHash", "output-hash"),
  };
  const fillDeadline = readUnixSeconds(payload.fillDeadline, "fillDeadline");
  const output = readOutput(payload.output, "output");
  checkOutput(output, route);
  checkAmounts(escrowOrder.amount, output.amount, route);
  checkDeadlines({ fillDeadline, expires: escrowOrder.expires }, times);
  if (escrowOrder.outputHash !== solanaOutputHash(fillDeadline, output)) {
    throw new QuoteRejection(
      "output-hash",
      "escrowOrder.outputHash is not the hash of fillDeadline and output",
    );
  }
  const onchainOrderId = solanaEscrowOrderId(escrowOrder);
  if (readBytes32(escrow.orderId, "escrowOrder.orderId", "order-id") !== onchainOrderId) {
    throw new QuoteRejection("order-id", `escrowOrder.orderId is not ${onchainOrderId}`);
  }

  const transactionMessage = payload.transactionMessage;
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
  const { accounts } = message;
  if (accounts[0] !== feePayer)
    throw new QuoteRejection("fee-payer", `the message's fee payer is ${accounts[0]}`);
  if (accounts[1] !== sender)
    throw new QuoteRejection("user", `the message's second signer is ${accounts[1]}`);
  if (new Set(accounts).size !== accounts.length)
    throw new QuoteRejection("message", "an account is listed twice");
  if (message.instructions.length !== 2) {
    throw new QuoteRejection(
      "instruction",
      `${message.instructions.length} instructions, not transferChecked and Memo`,
    );
  }
  const account = (index: number): string => {
    const key = accounts[index];
    if (key === undefined) throw new QuoteRejection("message", `account index ${index} is out of range`);
    return key;
  };
  const used = new Set([0, 1]);
  const [transfer, memo] = message.instructions as [
    (typeof message.instructions)[0],
    (typeof message.instructions)[0],
  ];
  used.add(transfer.programIndex).add(memo.programIndex);
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
  if (source !== facts.sourceTokenAccount) {
    throw new QuoteRejection("input", `transfer source ${source} is not the sender's token account`);
  }
  if (mintAccount !== mint) throw new QuoteRejection("input", `transfer mint ${mintAccount} is not ${mint}`);
  if (destination !== route.source.vault) {
    throw new QuoteRejection("vault", `transfer destination ${destination} is not the catalog's vault`);
  }
  if (authority !== sender)
    throw new QuoteRejection("user", `transfer authority ${authority} is not the sender`);
  const amount = uint64LittleEndian(transfer.data, 1);
  if (amount !== escrowOrder.amount) {
    throw new QuoteRejection("amount", `transfer of ${amount} is not the order's ${escrowOrder.amount}`);
  }
  if (transfer.data[9] !== route.source.asset.decimals) {
    throw new QuoteRejection(
      "input",
      `transfer decimals ${transfer.data[9]} are not ${route.source.asset.decimals}`,
    );
  }
  if (account(memo.programIndex) !== MEMO_PROGRAM) {
    throw new QuoteRejection("instruction", `the second instruction calls ${account(memo.programIndex)}`);
  }
  // Memo only checks that the accounts it names signed; the two signers are harmless there.
  if (memo.accountIndices.some((index) => index > 1)) {
    throw new QuoteRejection("instruction", "the memo names an account other than the signers");
  }
  if (Buffer.from(memo.data).toString("latin1") !== onchainOrderId) {
    throw new QuoteRejection("instruction", "the memo is not the order id");
  }
  if (used.size !== accounts.length)
    throw new QuoteRejection("message", "the message lists an unused account");
  const digest = solanaMessageDigest(bytes);
  if (payload.digest !== digest) throw new QuoteRejection("digest", `digest is not the message's ${digest}`);
  return {
    signPayload: { transactionMessage, digest, sender, feePayer },
    escrowOrder,
    fillDeadline,
    output,
    onchainOrderId,
    recentBlockhash: message.recentBlockhash,
  };
}
