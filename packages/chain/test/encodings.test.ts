import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type Hex, size, slice } from "viem";
import {
  addressToBytes32,
  bytes32ToAddress,
  encodeEip3009OpenForSignature,
  encodePermit2OpenForSignature,
  fillDescriptionPayload,
  type MandateOutput,
} from "../src/index.js";

const word = (byte: string) => `0x${byte.repeat(32)}` as Hex;
const sig65 = `0x${"11".repeat(64)}1b` as Hex;

describe("chain encodings", () => {
  it("the FillDescription payload is SOLVER, ORDERID, TIMESTAMP(4), TOKEN, AMOUNT, RECIPIENT, then length-prefixed callback and context", () => {
    const output: MandateOutput = {
      oracle: word("aa"),
      settler: word("bb"),
      chainId: 31338n,
      token: word("cc"),
      amount: 5n,
      recipient: word("dd"),
      callbackData: "0xbeef",
      context: "0x00",
    };
    const payload = fillDescriptionPayload({
      solver: word("01"),
      orderId: word("02"),
      timestamp: 0x01020304,
      output,
    });
    assert.equal(size(payload), 32 + 32 + 4 + 32 + 32 + 32 + 2 + 2 + 2 + 1);
    assert.equal(slice(payload, 0, 32), word("01"));
    assert.equal(slice(payload, 32, 64), word("02"));
    assert.equal(slice(payload, 64, 68), "0x01020304");
    assert.equal(slice(payload, 68, 100), word("cc"));
    assert.equal(BigInt(slice(payload, 100, 132)), 5n);
    assert.equal(slice(payload, 132, 164), word("dd"));
    assert.equal(slice(payload, 164, 166), "0x0002");
    assert.equal(slice(payload, 166, 168), "0xbeef");
    assert.equal(slice(payload, 168, 170), "0x0001");
    assert.equal(slice(payload, 170), "0x00");
  });

  it("openFor signatures carry the lane byte: 0x00 for Permit2, 0x01 for EIP-3009, and refuse a non-65-byte signature", () => {
    assert.equal(encodePermit2OpenForSignature(sig65), `0x00${sig65.slice(2)}`);
    assert.equal(encodeEip3009OpenForSignature(sig65), `0x01${sig65.slice(2)}`);
    assert.equal(slice(encodeEip3009OpenForSignature([sig65, sig65]), 0, 1), "0x01");
    assert.throws(() => encodePermit2OpenForSignature(`0x${"11".repeat(64)}`));
    assert.throws(() => encodeEip3009OpenForSignature(`0x00${sig65.slice(2)}`));
  });

  it("bytes32 addresses round-trip and an address with high bits set is refused", () => {
    const address = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
    assert.equal(
      addressToBytes32(address),
      "0x0000000000000000000000005fbdb2315678afecb367f032d93f642f64180aa3",
    );
    assert.equal(bytes32ToAddress(addressToBytes32(address)), address);
    assert.throws(() => bytes32ToAddress(word("ff")));
  });
});
