import assert from "node:assert/strict";
import { randomBytes, randomInt } from "node:crypto";
import { describe, it } from "node:test";
import {
  type Address,
  bytesToHex,
  concat,
  encodeAbiParameters,
  encodePacked,
  type Hex,
  keccak256,
  numberToHex,
} from "viem";
import { setExactHexBytes, setUint256 } from "../src/hex-bytes.js";
import { mandateOutputAbiParameter, orderIdentifier, type StandardOrder } from "../src/index.js";
import { keccak256Bytes } from "../src/keccak.js";

const hex = (bytes: number) => `0x${randomBytes(bytes).toString("hex")}` as Hex;
const uint = (bytes: number) => BigInt(hex(bytes));

/** The order id as viem's generic ABI encoders build it, the reference orderIdentifier is held to. */
function referenceOrderIdentifier(order: StandardOrder, chainId: bigint, settler: Address): Hex {
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
        chainId,
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

/** orderIdentifier as it was before it wrote into one reused buffer: the errors it threw, in order. */
function previousOrderIdentifier(order: StandardOrder, chainId: number | bigint, settler: Address): Hex {
  const inputsPacked = new Uint8Array(64 * order.inputs.length);
  order.inputs.forEach(([token, amount], i) => {
    setUint256(inputsPacked, 64 * i, token);
    setUint256(inputsPacked, 64 * i + 32, amount);
  });
  const padded = (hex: Hex) => Math.ceil((hex.length - 2) / 64) * 32;
  const tupleSizes = order.outputs.map((o) => 32 * 9 + padded(o.callbackData) + 32 + padded(o.context));
  const outputs = new Uint8Array(64 + 32 * order.outputs.length + tupleSizes.reduce((a, b) => a + b, 0));
  setUint256(outputs, 0, 32);
  setUint256(outputs, 32, order.outputs.length);
  let tuple = 32 * order.outputs.length;
  order.outputs.forEach((o, i) => {
    setUint256(outputs, 64 + 32 * i, tuple);
    const at = 64 + tuple;
    setExactHexBytes(outputs, at, o.oracle, 32);
    setExactHexBytes(outputs, at + 32, o.settler, 32);
    setUint256(outputs, at + 64, o.chainId);
    setExactHexBytes(outputs, at + 96, o.token, 32);
    setUint256(outputs, at + 128, o.amount);
    setExactHexBytes(outputs, at + 160, o.recipient, 32);
    const contextAt = 32 * 9 + padded(o.callbackData);
    setUint256(outputs, at + 192, 32 * 8);
    setUint256(outputs, at + 224, contextAt);
    setUint256(outputs, at + 256, (o.callbackData.length - 2) / 2);
    setExactHexBytes(outputs, at + 288, o.callbackData);
    setUint256(outputs, at + contextAt, (o.context.length - 2) / 2);
    setExactHexBytes(outputs, at + contextAt + 32, o.context);
    tuple += tupleSizes[i]!;
  });
  const packed = new Uint8Array(164 + outputs.length);
  setUint256(packed, 0, BigInt(chainId));
  setExactHexBytes(packed, 32, settler, 20);
  setExactHexBytes(packed, 52, order.user, 20);
  setUint256(packed, 72, order.nonce);
  const uint32 = (offset: number, value: number) => {
    if (!Number.isInteger(value) || value < 0 || value > 0xffffffff)
      throw new RangeError(`${value} is not a uint32`);
    new DataView(packed.buffer).setUint32(offset, value);
  };
  uint32(104, order.expires);
  uint32(108, order.fillDeadline);
  setExactHexBytes(packed, 112, order.inputOracle, 20);
  packed.set(keccak256Bytes(inputsPacked), 132);
  packed.set(outputs, 164);
  return bytesToHex(keccak256Bytes(packed));
}

/** Another form of a value: a hex string cut, grown or spoilt, a number or bigint out of range, or none. */
function oddValue(value: unknown): unknown {
  const text = String(value);
  const odd: unknown[] = [
    text.toUpperCase(),
    text.slice(0, -1),
    text.slice(0, -2),
    `${text}00`,
    `${text.slice(0, -1)}g`,
    text.slice(2),
    "0x",
    -1,
    -1n,
    1.5,
    2 ** 32,
    2 ** 53,
    1n << 256n,
    undefined,
    null,
  ];
  return odd[randomInt(0, odd.length)];
}

/** The id, or the error's class and message. */
function outcome(run: () => unknown): unknown {
  try {
    return { value: run() };
  } catch (error) {
    return { error: (error as Error).constructor.name, message: (error as Error).message };
  }
}

function randomOrder(inputs: number, outputs: number): StandardOrder {
  return {
    user: hex(20),
    nonce: uint(32),
    originChainId: uint(4),
    expires: randomBytes(4).readUInt32BE(),
    fillDeadline: randomBytes(4).readUInt32BE(),
    inputOracle: hex(20),
    inputs: Array.from({ length: inputs }, () => [uint(20), uint(32)] as const),
    outputs: Array.from({ length: outputs }, (_, i) => ({
      oracle: hex(32),
      settler: hex(32),
      chainId: uint(8),
      token: hex(32),
      amount: uint(32),
      recipient: hex(32),
      callbackData: i === 0 ? "0x" : hex(i * 17),
      context: i === 1 ? "0x" : hex(i * 32),
    })),
  };
}

describe("orderIdentifier", () => {
  it("equals the id viem's ABI encoders give, for one to three inputs and outputs with bytes of any length", () => {
    for (let i = 0; i < 60; i += 1) {
      const order = randomOrder(1 + (i % 3), 1 + (i % 4 === 3 ? 0 : i % 3));
      const chainId = uint(4);
      const settler = hex(20);
      assert.equal(
        orderIdentifier(order, chainId, settler),
        referenceOrderIdentifier(order, chainId, settler),
      );
    }
  });

  it("refuses an amount past uint256, a deadline past uint32 and a short address, as viem's encoders do", () => {
    const order = randomOrder(1, 1);
    const settler = hex(20);
    assert.throws(() => orderIdentifier({ ...order, inputs: [[1n, 1n << 256n]] }, 1n, settler), RangeError);
    assert.throws(() => orderIdentifier({ ...order, fillDeadline: 2 ** 32 }, 1n, settler), RangeError);
    assert.throws(() => orderIdentifier({ ...order, user: "0x1234" }, 1n, settler), TypeError);
    assert.throws(
      () => referenceOrderIdentifier({ ...order, fillDeadline: 2 ** 32 }, 1n, settler),
      /not in safe 32-bit unsigned integer range/,
    );
  });

  it("takes the kept inputs hash only for the very inputs it last hashed: orders sharing inputs or differing in one", () => {
    let order = randomOrder(1, 1);
    const settler = hex(20);
    for (let i = 0; i < 600; i += 1) {
      const inputs = order.inputs.map((input) => [...input] as [bigint, bigint]);
      const step = randomInt(0, 8);
      if (step === 0) inputs.push([uint(20), uint(8)]);
      else if (step === 1 && inputs.length > 1) inputs.pop();
      else if (step === 2) inputs[randomInt(0, inputs.length)]![0] ^= 1n;
      else if (step === 3) inputs[randomInt(0, inputs.length)]![1] += 1n;
      else if (step === 4) inputs.reverse();
      // A fresh order of the same inputs, and now and then one that fails after its inputs are read.
      order = { ...randomOrder(1, 1 + (i % 2)), inputs };
      const failing = randomInt(0, 10) === 0;
      const expected = referenceOrderIdentifier(order, 7n, settler);
      if (failing)
        assert.throws(() => orderIdentifier({ ...order, fillDeadline: 2 ** 32 }, 7n, settler), RangeError);
      else assert.equal(orderIdentifier(order, 7n, settler), expected);
    }
  });

  it("gives the id or the error it gave before for an order with any one value odd, and for bytes past its buffer", () => {
    for (let i = 0; i < 3000; i += 1) {
      const order = randomOrder(1 + (i % 3), 1 + (i % 3));
      const settler = hex(20);
      const oddOrder = {
        ...order,
        inputs: order.inputs.map((input) => [...input]),
        outputs: order.outputs.map((output) => ({ ...output })),
      } as unknown as Record<string, unknown> & { inputs: unknown[][]; outputs: Record<string, unknown>[] };
      const places: [Record<string, unknown>, string][] = [];
      for (const key of ["user", "nonce", "expires", "fillDeadline", "inputOracle"])
        places.push([oddOrder, key]);
      for (const output of oddOrder.outputs)
        for (const key of Object.keys(output)) places.push([output, key]);
      for (const input of oddOrder.inputs) {
        places.push(
          [input as unknown as Record<string, unknown>, "0"],
          [input as unknown as Record<string, unknown>, "1"],
        );
      }
      const [parent, key] = places[randomInt(0, places.length)]!;
      // callbackData and context are hex strings by type: what a number there did is not kept.
      let value = oddValue(parent[key]);
      while ((key === "callbackData" || key === "context") && typeof value !== "string")
        value = oddValue(parent[key]);
      parent[key] = value;
      assert.deepEqual(
        outcome(() => orderIdentifier(oddOrder as unknown as StandardOrder, 31337, settler)),
        outcome(() => previousOrderIdentifier(oddOrder as unknown as StandardOrder, 31337, settler)),
      );
    }
    const long = randomOrder(2, 3);
    (long.outputs[1] as { context: Hex }).context = hex(3000);
    for (const order of [long, randomOrder(1, 1), long]) {
      assert.equal(orderIdentifier(order, 1n, order.user), referenceOrderIdentifier(order, 1n, order.user));
    }
  });
});
