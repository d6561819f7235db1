import { type Address, bytesToHex, encodeAbiParameters, type Hex, numberToHex } from "viem";
import { setExactHexBytes, setUint256 } from "./hex-bytes.js";
import { keccak256Bytes } from "./keccak.js";

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

/** A uint32 as 4 big-endian bytes at `offset`; a value out of range throws. */
function writeUint32(into: Uint8Array, offset: number, value: number): void {
  if (!Number.isInteger(value) || value < 0 || value > 0xffffffff)
    throw new RangeError(`${value} is not a uint32`);
  into[offset] = value >>> 24;
  into[offset + 1] = (value >>> 16) & 0xff;
  into[offset + 2] = (value >>> 8) & 0xff;
  into[offset + 3] = value & 0xff;
}

/**
 * `abi.encode(outputs)` for a MandateOutput[]: the array's offset and length, one offset per tuple,
 * then each tuple (six static words, the two offsets of its bytes, then each bytes' length and padded
 * data). Written directly: viem's generic encoder was most of a vetted EIP-3009 quote's CPU.
 */
function encodeMandateOutputs(outputs: readonly MandateOutput[]): Uint8Array {
  const padded = (hex: Hex) => Math.ceil((hex.length - 2) / 64) * 32;
  const tupleSizes = outputs.map((o) => 32 * 8 + 32 + padded(o.callbackData) + 32 + padded(o.context));
  const encoded = new Uint8Array(64 + 32 * outputs.length + tupleSizes.reduce((a, b) => a + b, 0));
  setUint256(encoded, 0, 32);
  setUint256(encoded, 32, outputs.length);
  let tuple = 32 * outputs.length;
  outputs.forEach((o, i) => {
    setUint256(encoded, 64 + 32 * i, tuple);
    const at = 64 + tuple;
    setExactHexBytes(encoded, at, o.oracle, 32);
    setExactHexBytes(encoded, at + 32, o.settler, 32);
    setUint256(encoded, at + 64, o.chainId);
    setExactHexBytes(encoded, at + 96, o.token, 32);
    setUint256(encoded, at + 128, o.amount);
    setExactHexBytes(encoded, at + 160, o.recipient, 32);
    const contextAt = 32 * 8 + 32 + padded(o.callbackData);
    setUint256(encoded, at + 192, 32 * 8);
    setUint256(encoded, at + 224, contextAt);
    setUint256(encoded, at + 256, (o.callbackData.length - 2) / 2);
    setExactHexBytes(encoded, at + 288, o.callbackData);
    setUint256(encoded, at + contextAt, (o.context.length - 2) / 2);
    setExactHexBytes(encoded, at + contextAt + 32, o.context);
    tuple += tupleSizes[i]!;
  });
  return encoded;
}

/**
 * The on-chain order id, equal to InputSettlerEscrow.orderIdentifier(order) on `chainId` at `settler`:
 * keccak256(abi.encodePacked(chainId, settler, user, nonce, expires, fillDeadline, inputOracle,
 * keccak256(abi.encodePacked(inputs)), abi.encode(outputs))).
 */
export function orderIdentifier(order: StandardOrder, chainId: number | bigint, settler: Address): Hex {
  // abi.encodePacked(uint256[2][]) is every element as a 32-byte word, in order.
  const inputsPacked = new Uint8Array(64 * order.inputs.length);
  order.inputs.forEach(([token, amount], i) => {
    setUint256(inputsPacked, 64 * i, token);
    setUint256(inputsPacked, 64 * i + 32, amount);
  });
  const outputs = encodeMandateOutputs(order.outputs);
  const packed = new Uint8Array(32 + 20 + 20 + 32 + 4 + 4 + 20 + 32 + outputs.length);
  setUint256(packed, 0, BigInt(chainId));
  setExactHexBytes(packed, 32, settler, 20);
  setExactHexBytes(packed, 52, order.user, 20);
  setUint256(packed, 72, order.nonce);
  writeUint32(packed, 104, order.expires);
  writeUint32(packed, 108, order.fillDeadline);
  setExactHexBytes(packed, 112, order.inputOracle, 20);
  packed.set(keccak256Bytes(inputsPacked), 132);
  packed.set(outputs, 164);
  return bytesToHex(keccak256Bytes(packed));
}
