import {
  decodeBase58,
  type MandateOutput,
  type SolanaEscrowOrder,
  solanaEscrowOrderId,
  solanaOutputHash,
} from "@hub/chain";
import { QuoteRejection } from "../../../quotes/quote-rejection.js";
import type { SolanaToEvmQuoteRoute } from "../../../quotes/solana-quote-route.js";
import { checkAmounts, checkDeadlines, checkOutput, type QuoteTimes } from "../check-standard-order.js";
import { readBytes32, readObject, readUint } from "../typed-data-values.js";
import { readOutput } from "../vet-permit2-order.js";
import { vetSolanaDepositMessage } from "./vet-solana-deposit-message.js";

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

/** The sender is sourceAccount; the fee payer the solver's declared key and not the sender. */
function readSigners(
  payload: Record<string, unknown>,
  solverId: string,
  route: SolanaToEvmQuoteRoute,
  facts: SolanaVettingFacts,
): { sender: string; feePayer: string } {
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

  return { sender, feePayer };
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
  const { sender, feePayer } = readSigners(payload, solverId, route, facts);
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

  const { transactionMessage, digest, recentBlockhash } = vetSolanaDepositMessage(payload, {
    feePayer,
    sender,
    sourceTokenAccount: facts.sourceTokenAccount,
    mint,
    vault: route.source.vault,
    amount: escrowOrder.amount,
    decimals: route.source.asset.decimals,
    orderId: onchainOrderId,
  });
  return {
    signPayload: { transactionMessage, digest, sender, feePayer },
    escrowOrder,
    fillDeadline,
    output,
    onchainOrderId,
    recentBlockhash,
  };
}
