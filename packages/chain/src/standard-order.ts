import { type Address, bytesToHex, encodeAbiParameters, type Hex, numberToHex } from "viem";
import { setExactHexBytes, setUint256, writeWholeHex } from "./hex-bytes.js";
import { keccak256Bytes, keccak256Into } from "./keccak.js";

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

/** Bytes the dynamic `bytes` value takes in an ABI encoding, padded to whole words. */
function paddedLength(hex: Hex): number {
  return Math.ceil((hex.length - 2) / 64) * 32;
}

/** Bytes of `abi.encode(outputs)`. */
function mandateOutputsLength(outputs: readonly MandateOutput[]): number {
  let length = 64 + 32 * outputs.length;
  for (const o of outputs)
    length += 32 * 8 + 32 + paddedLength(o.callbackData) + 32 + paddedLength(o.context);
  return length;
}

/**
 * Writes `abi.encode(outputs)` for a MandateOutput[] at `at` of zeroed bytes: the array's offset and
 * length, one offset per tuple, then each tuple (six static words, the two offsets of its bytes, then
 * each bytes' length and padded data). Written directly: viem's generic encoder was most of a vetted
 * EIP-3009 quote's CPU.
 */
function writeMandateOutputs(encoded: Uint8Array, at: number, outputs: readonly MandateOutput[]): void {
  setUint256(encoded, at, 32);
  setUint256(encoded, at + 32, outputs.length);
  let tuple = 32 * outputs.length;
  outputs.forEach((o, i) => {
    setUint256(encoded, at + 64 + 32 * i, tuple);
    const start = at + 64 + tuple;
    setHexWord(encoded, start, o.oracle, 32);
    setHexWord(encoded, start + 32, o.settler, 32);
    setUint256(encoded, start + 64, o.chainId);
    setHexWord(encoded, start + 96, o.token, 32);
    setUint256(encoded, start + 128, o.amount);
    setHexWord(encoded, start + 160, o.recipient, 32);
    const contextAt = 32 * 8 + 32 + paddedLength(o.callbackData);
    setUint256(encoded, start + 192, 32 * 8);
    setUint256(encoded, start + 224, contextAt);
    setUint256(encoded, start + 256, (o.callbackData.length - 2) / 2);
    setExactHexBytes(encoded, start + 288, o.callbackData);
    setUint256(encoded, start + contextAt, (o.context.length - 2) / 2);
    setExactHexBytes(encoded, start + contextAt + 32, o.context);
    tuple += contextAt + 32 + paddedLength(o.context);
  });
}

/** setExactHexBytes in one pass for hex of `size` bytes; anything else is left to it (which throws). */
function setHexWord(into: Uint8Array, offset: number, hex: string, size: number): void {
  if (typeof hex === "string" && hex.length === 2 + 2 * size && writeWholeHex(into, offset, hex)) return;
  setExactHexBytes(into, offset, hex, size);
}

// orderIdentifier's bytes: written and hashed without yielding, so one buffer serves every call.
let scratch = new Uint8Array(1024);

/** The scratch buffer with at least `length` bytes, its first `kept` bytes kept. */
function scratchOf(length: number, kept: number): Uint8Array {
  if (length > scratch.length) {
    const larger = new Uint8Array(Math.max(length, 2 * scratch.length));
    larger.set(scratch.subarray(0, kept));
    scratch = larger;
  }
  return scratch;
}

// The quotes of a round share their inputs (the route's token and amount): the last inputs hashed,
// token and amount in turn, and their keccak are kept.
const lastInputs: { values: bigint[] | undefined; hash: Uint8Array } = {
  values: undefined,
  hash: new Uint8Array(32),
};

function holdsLastInputs(inputs: StandardOrder["inputs"]): boolean {
  const { values } = lastInputs;
  if (values === undefined || values.length !== 2 * inputs.length) return false;
  return inputs.every((input, i) => input[0] === values[2 * i] && input[1] === values[2 * i + 1]);
}

/**
 * The on-chain order id, equal to InputSettlerEscrow.orderIdentifier(order) on `chainId` at `settler`:
 * keccak256(abi.encodePacked(chainId, settler, user, nonce, expires, fillDeadline, inputOracle,
 * keccak256(abi.encodePacked(inputs)), abi.encode(outputs))).
 */
export function orderIdentifier(order: StandardOrder, chainId: number | bigint, settler: Address): Hex {
  // abi.encodePacked(uint256[2][]) is every element as a 32-byte word, in order; the packed id input
  // follows it.
  const at = 64 * order.inputs.length;
  let bytes = scratchOf(at, 0);
  const inputsKnown = holdsLastInputs(order.inputs);
  if (!inputsKnown) {
    order.inputs.forEach(([token, amount], i) => {
      setUint256(bytes, 64 * i, token);
      setUint256(bytes, 64 * i + 32, amount);
    });
  }
  const end = at + 164 + mandateOutputsLength(order.outputs);
  bytes = scratchOf(end, at);
  bytes.fill(0, at, end);
  writeMandateOutputs(bytes, at + 164, order.outputs);
  setUint256(bytes, at, BigInt(chainId));
  setHexWord(bytes, at + 32, settler, 20);
  setHexWord(bytes, at + 52, order.user, 20);
  setUint256(bytes, at + 72, order.nonce);
  writeUint32(bytes, at + 104, order.expires);
  writeUint32(bytes, at + 108, order.fillDeadline);
  setHexWord(bytes, at + 112, order.inputOracle, 20);
  if (inputsKnown) bytes.set(lastInputs.hash, at + 132);
  else {
    keccak256Into(bytes, 0, at, bytes, at + 132);
    lastInputs.values = order.inputs.flat();
    lastInputs.hash.set(bytes.subarray(at + 132, at + 164));
  }
  return bytesToHex(keccak256Bytes(bytes.subarray(at, end)));
}
