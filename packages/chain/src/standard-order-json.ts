import type { Hex } from "viem";
import type { MandateOutput, StandardOrder } from "./standard-order.js";

/** A MandateOutput as JSON: uint256 as decimal strings, bytes hex (lowercase unless kept). */
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

/** A StandardOrder as JSON: uint256 as decimal strings, uint32 as numbers, addresses and bytes hex (lowercase unless kept). */
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

/** Lowercases the hex fields unless `keepCase` (the devnet's solver sends addresses as it holds them). */
export interface OrderJsonOptions {
  keepCase?: boolean;
}

function hexOf(value: string, options: OrderJsonOptions): string {
  return options.keepCase ? value : value.toLowerCase();
}

export function mandateOutputToJson(
  output: MandateOutput,
  options: OrderJsonOptions = {},
): MandateOutputJson {
  return {
    oracle: hexOf(output.oracle, options),
    settler: hexOf(output.settler, options),
    chainId: output.chainId.toString(),
    token: hexOf(output.token, options),
    amount: output.amount.toString(),
    recipient: hexOf(output.recipient, options),
    callbackData: hexOf(output.callbackData, options),
    context: hexOf(output.context, options),
  };
}

export function standardOrderToJson(order: StandardOrder, options: OrderJsonOptions = {}): StandardOrderJson {
  return {
    user: hexOf(order.user, options),
    nonce: order.nonce.toString(),
    originChainId: order.originChainId.toString(),
    expires: order.expires,
    fillDeadline: order.fillDeadline,
    inputOracle: hexOf(order.inputOracle, options),
    inputs: order.inputs.map(([token, amount]) => [token.toString(), amount.toString()]),
    outputs: order.outputs.map((output) => mandateOutputToJson(output, options)),
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
