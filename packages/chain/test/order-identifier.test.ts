import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, it } from "node:test";
import {
  type Address,
  concat,
  encodeAbiParameters,
  encodePacked,
  type Hex,
  keccak256,
  numberToHex,
} from "viem";
import { mandateOutputAbiParameter, orderIdentifier, type StandardOrder } from "../src/index.js";

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
});
