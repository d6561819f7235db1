import {
  type Address,
  concat,
  encodeAbiParameters,
  encodePacked,
  type Hex,
  keccak256,
  numberToHex,
  pad,
} from "viem";

export interface MandateOutput {
  oracle: Hex;
  settler: Hex;
  chainId: bigint;
  token: Hex;
  amount: bigint;
  recipient: Hex;
  callbackData: Hex;
  context: Hex;
}

/** The public OIF StandardOrder; inputs[i] = [uint256(uint160(token)), amount]. */
export interface StandardOrder {
  user: Address;
  nonce: bigint;
  originChainId: bigint;
  expires: number;
  fillDeadline: number;
  inputOracle: Address;
  inputs: readonly (readonly [bigint, bigint])[];
  outputs: readonly MandateOutput[];
}

const outputsParameter = {
  type: "tuple[]",
  components: [
    { name: "oracle", type: "bytes32" },
    { name: "settler", type: "bytes32" },
    { name: "chainId", type: "uint256" },
    { name: "token", type: "bytes32" },
    { name: "amount", type: "uint256" },
    { name: "recipient", type: "bytes32" },
    { name: "callbackData", type: "bytes" },
    { name: "context", type: "bytes" },
  ],
} as const;

export function addressToBytes32(address: Address): Hex {
  return pad(address.toLowerCase() as Hex, { size: 32 });
}

/** The escrow's order id for `order` on a settler: the OIF `orderIdentifier` formula, computed off chain. */
export function computeOrderIdentifier(order: StandardOrder, settler: Address): Hex {
  const inputsPacked = concat(
    order.inputs.flatMap(([token, amount]) => [
      numberToHex(token, { size: 32 }),
      numberToHex(amount, { size: 32 }),
    ]),
  );
  return keccak256(
    concat([
      encodePacked(
        ["uint256", "address", "address", "uint256", "uint32", "uint32", "address", "bytes32"],
        [
          order.originChainId,
          settler,
          order.user,
          order.nonce,
          order.expires,
          order.fillDeadline,
          order.inputOracle,
          keccak256(inputsPacked),
        ],
      ),
      encodeAbiParameters([outputsParameter], [order.outputs.map((o) => ({ ...o }))]),
    ]),
  );
}

/** keccak256 of the FillDescription the committee attests for one filled output. */
export function fillDescriptionHash(
  solver: Hex,
  orderId: Hex,
  timestamp: number,
  output: MandateOutput,
): Hex {
  return keccak256(
    encodePacked(
      ["bytes32", "bytes32", "uint32", "bytes32", "uint256", "bytes32", "uint16", "bytes", "uint16", "bytes"],
      [
        solver,
        orderId,
        timestamp,
        output.token,
        output.amount,
        output.recipient,
        (output.callbackData.length - 2) / 2,
        output.callbackData,
        (output.context.length - 2) / 2,
        output.context,
      ],
    ),
  );
}

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
