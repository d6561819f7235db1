import type { StandardOrder } from "@hub/chain";
import type { Hex } from "viem";
import { evmOrderPayload, type QuoteResponse } from "../src/aggregator/oif-quote.js";

interface Permit2Message {
  permitted: { token: Hex; amount: string }[];
  nonce: string;
  deadline: string;
  witness: {
    user: Hex;
    expires: number;
    inputOracle: Hex;
    outputs: {
      oracle: Hex;
      settler: Hex;
      chainId: number;
      token: Hex;
      amount: string;
      recipient: Hex;
      callbackData: Hex;
      context: Hex;
    }[];
  };
}

/** The StandardOrder an escrow quote's Permit2 payload describes, as the hub compiles a proxy step from it. */
export function orderFromQuote(quote: QuoteResponse): StandardOrder {
  const message = evmOrderPayload(quote.order).message as unknown as Permit2Message;
  return {
    user: message.witness.user,
    nonce: BigInt(message.nonce),
    originChainId: BigInt(evmOrderPayload(quote.order).domain.chainId as number),
    expires: message.witness.expires,
    fillDeadline: Number(message.deadline),
    inputOracle: message.witness.inputOracle,
    inputs: message.permitted.map((permit) => [BigInt(permit.token), BigInt(permit.amount)] as const),
    outputs: message.witness.outputs.map((output) => ({
      ...output,
      chainId: BigInt(output.chainId),
      amount: BigInt(output.amount),
    })),
  };
}
