import type { StandardOrder } from "@hub/chain";

/** The order as JSON: bigints as decimal strings, so it can travel in quote metadata and be rebuilt. */
export function standardOrderToJson(order: StandardOrder) {
  return {
    user: order.user,
    nonce: order.nonce.toString(),
    originChainId: order.originChainId.toString(),
    expires: order.expires,
    fillDeadline: order.fillDeadline,
    inputOracle: order.inputOracle,
    inputs: order.inputs.map(([token, amount]) => [token.toString(), amount.toString()]),
    outputs: order.outputs.map((o) => ({ ...o, chainId: o.chainId.toString(), amount: o.amount.toString() })),
  };
}
