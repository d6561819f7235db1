import type { Hex } from "viem";
import type { MandateOutput, StandardOrder } from "./standard-order.js";

/** A MandateOutput as JSON: uint256 as decimal strings, bytes lowercase hex. */
export interface MandateOutputJson {
  oracle: string;
  settler: string;
  chainId: string;
  token: string;
  amount: string;
  recipient: string;
  callbackData: string;
  context: string;
}

/** A StandardOrder as JSON: uint256 as decimal strings, uint32 as numbers, addresses and bytes lowercase hex. */
export interface StandardOrderJson {
  user: string;
  nonce: string;
  originChainId: string;
  expires: number;
  fillDeadline: number;
  inputOracle: string;
  inputs: [string, string][];
  outputs: MandateOutputJson[];
}

export function mandateOutputToJson(output: MandateOutput): MandateOutputJson {
  return {
    oracle: output.oracle.toLowerCase(),
    settler: output.settler.toLowerCase(),
    chainId: output.chainId.toString(),
    token: output.token.toLowerCase(),
    amount: output.amount.toString(),
    recipient: output.recipient.toLowerCase(),
    callbackData: output.callbackData.toLowerCase(),
    context: output.context.toLowerCase(),
  };
}

export function standardOrderToJson(order: StandardOrder): StandardOrderJson {
  return {
    user: order.user.toLowerCase(),
    nonce: order.nonce.toString(),
    originChainId: order.originChainId.toString(),
    expires: order.expires,
    fillDeadline: order.fillDeadline,
    inputOracle: order.inputOracle.toLowerCase(),
    inputs: order.inputs.map(([token, amount]) => [token.toString(), amount.toString()]),
    outputs: order.outputs.map(mandateOutputToJson),
  };
}

/** The StandardOrder a JSON form stands for (the inverse of standardOrderToJson). */
export function standardOrderFromJson(json: StandardOrderJson): StandardOrder {
  return {
    user: json.user as Hex,
    nonce: BigInt(json.nonce),
    originChainId: BigInt(json.originChainId),
    expires: json.expires,
    fillDeadline: json.fillDeadline,
    inputOracle: json.inputOracle as Hex,
    inputs: json.inputs.map(([token, amount]) => [BigInt(token), BigInt(amount)] as const),
    outputs: json.outputs.map((output) => ({
      oracle: output.oracle as Hex,
      settler: output.settler as Hex,
      chainId: BigInt(output.chainId),
      token: output.token as Hex,
      amount: BigInt(output.amount),
      recipient: output.recipient as Hex,
      callbackData: output.callbackData as Hex,
      context: output.context as Hex,
    })),
  };
}
