import { type Address, encodeFunctionData, type Hex } from "viem";
import { userProxyAbi } from "./abis.js";
import { decodeStandardOrderInput, type StandardOrder } from "./standard-order.js";

/** One transaction a wallet sends as it is. */
export interface WalletCall {
  to: Address;
  data: Hex;
  value: bigint;
}

/** The oif-wrap-native step: wrapAndOpen on the user proxy, with the order's single input amount as value. */
export function wrapAndOpenCall(params: { userProxy: Address; order: StandardOrder }): WalletCall {
  const [input] = params.order.inputs;
  if (!input || params.order.inputs.length !== 1)
    throw new Error("wrapAndOpen takes an order with one input");
  return {
    to: params.userProxy,
    data: encodeFunctionData({ abi: userProxyAbi, functionName: "wrapAndOpen", args: [params.order] }),
    value: input[1],
  };
}

/**
 * The oif-swap-token steps: approve the proxy for amountMax of tokenIn, then swapAndOpenV2 (value 0).
 * The whole amountMax is spent; any surplus of the order's input token goes to order.user.
 */
export function swapAndOpenV2Calls(params: {
  userProxy: Address;
  tokenIn: Address;
  amountMax: bigint;
  order: StandardOrder;
}): { approval: WalletCall; swapAndOpen: WalletCall } {
  const [input] = params.order.inputs;
  if (params.order.inputs.length !== 1 || input === undefined)
    throw new Error("swapAndOpenV2 takes an order with one input");
  decodeStandardOrderInput(input[0]);
  return {
    approval: {
      to: params.tokenIn,
      data: encodeFunctionData({
        abi: [
          {
            type: "function",
            name: "approve",
            stateMutability: "nonpayable",
            inputs: [
              { name: "spender", type: "address" },
              { name: "value", type: "uint256" },
            ],
            outputs: [{ name: "", type: "bool" }],
          },
        ],
        functionName: "approve",
        args: [params.userProxy, params.amountMax],
      }),
      value: 0n,
    },
    swapAndOpen: {
      to: params.userProxy,
      data: encodeFunctionData({
        abi: userProxyAbi,
        functionName: "swapAndOpenV2",
        args: [params.tokenIn, params.amountMax, params.order],
      }),
      value: 0n,
    },
  };
}
