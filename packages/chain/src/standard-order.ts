import {
  type Address,
  concat,
  encodeAbiParameters,
  encodePacked,
  type Hex,
  keccak256,
  numberToHex,
} from "viem";

/** One output of an OIF order (MandateOutput); every cross-chain field is bytes32, token 0 = native. */
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

/** The OIF StandardOrder; inputs[i] = [uint256(uint160(token)), amount]. */
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

/** Who filled an output and when; finalise takes one per output. */
export interface SolveParams {
  timestamp: number;
  solver: Hex;
}

export const mandateOutputAbiParameter = {
  name: "output",
  type: "tuple",
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

export const standardOrderAbiParameter = {
  name: "order",
  type: "tuple",
  components: [
    { name: "user", type: "address" },
    { name: "nonce", type: "uint256" },
    { name: "originChainId", type: "uint256" },
    { name: "expires", type: "uint32" },
    { name: "fillDeadline", type: "uint32" },
    { name: "inputOracle", type: "address" },
    { name: "inputs", type: "uint256[2][]" },
    { ...mandateOutputAbiParameter, name: "outputs", type: "tuple[]" },
  ],
} as const;

/** ABI encoding of one StandardOrder tuple (as `abi.encode(order)`). */
export function encodeStandardOrder(order: StandardOrder): Hex {
  return encodeAbiParameters([standardOrderAbiParameter], [order]);
}

export function decodeStandardOrderInput(token: bigint): Address {
  if (token >> 160n !== 0n) throw new Error(`input token ${token} has bits above 160`);
  return numberToHex(token, { size: 20 });
}

/** The on-chain order id, equal to InputSettlerEscrow.orderIdentifier(order) on `chainId` at `settler`. */
export function orderIdentifier(order: StandardOrder, chainId: number | bigint, settler: Address): Hex {
  // abi.encodePacked(uint256[2][]) is every element as a 32-byte word, in order.
  const inputsPacked = concat(
    order.inputs.flatMap(([token, amount]) => [
      numberToHex(token, { size: 32 }),
      numberToHex(amount, { size: 32 }),
    ]),
  );
  const outputsEncoded = encodeAbiParameters(
    [{ ...mandateOutputAbiParameter, name: "outputs", type: "tuple[]" }],
    [order.outputs],
  );
  return keccak256(
    encodePacked(
      ["uint256", "address", "address", "uint256", "uint32", "uint32", "address", "bytes32", "bytes"],
      [
        BigInt(chainId),
        settler,
        order.user,
        order.nonce,
        order.expires,
        order.fillDeadline,
        order.inputOracle,
        keccak256(inputsPacked),
        outputsEncoded,
      ],
    ),
  );
}
