import { type MandateOutput, solanaEscrowOrderId, solanaOutputHash } from "@hub/chain";
import type { MandateOutputRecord, EscrowOrderTerms } from "../../status-rules/index.js";
import type { SolanaQuoteBlock } from "../solana-quote-block.js";

function mandateOutputOf(output: MandateOutputRecord): MandateOutput {
  return {
    oracle: output.oracle as `0x${string}`,
    settler: output.settler as `0x${string}`,
    chainId: BigInt(output.chainId),
    token: output.token as `0x${string}`,
    amount: BigInt(output.amount),
    recipient: output.recipient as `0x${string}`,
    callbackData: output.callbackData as `0x${string}`,
    context: output.context as `0x${string}`,
  };
}

/**
 * The terms of a Solana escrow order from the hub's own quote (its vetted `solana` block), kept only
 * when they hash to the order id (sha256 over user, mint, amount, expires, nonce, outputHash) and the
 * output to outputHash: the id commits to them, so terms from the quote are the terms the deposit was
 * made under.
 */
export function solanaOrderTerms(
  onchainOrderId: string,
  block: SolanaQuoteBlock | undefined,
): EscrowOrderTerms | undefined {
  if (!block) return undefined;
  try {
    const { escrowOrder, fillDeadline, output } = block;
    const id = solanaEscrowOrderId({
      ...escrowOrder,
      amount: BigInt(escrowOrder.amount),
      nonce: BigInt(escrowOrder.nonce),
    });
    if (id !== onchainOrderId) return undefined;
    if (solanaOutputHash(fillDeadline, mandateOutputOf(output)) !== escrowOrder.outputHash.toLowerCase())
      return undefined;
    return {
      user: escrowOrder.user,
      mint: escrowOrder.mint,
      amount: escrowOrder.amount,
      expires: escrowOrder.expires,
      fillDeadline,
      output: { ...output },
    };
  } catch {
    return undefined;
  }
}
