import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { describe, it } from "node:test";
import { getBase58Decoder, getBase58Encoder } from "@solana/kit";
import {
  BASE58_MAX_LENGTH,
  bytes32ToSolanaKey,
  decodeBase58,
  decodeSolanaInteropAddress,
  encodeBase58,
  encodeSolanaInteropAddress,
  solanaEscrowOrderId,
  solanaKeyToBytes32,
  solanaMessageDigest,
  solanaOifChainId,
  solanaOutputHash,
} from "../src/index.js";

const kitText = getBase58Decoder();
const kitBytes = getBase58Encoder();

describe("solana-order", () => {
  it("base58 agrees with @solana/kit both ways, leading zeros included", () => {
    for (const size of [0, 1, 2, 31, 32, 33, 64]) {
      for (let round = 0; round < 20; round++) {
        const bytes = randomBytes(size);
        if (round % 5 === 0 && size > 1) bytes[0] = 0;
        if (round % 7 === 0 && size > 2) bytes[1] = 0;
        const text = encodeBase58(bytes);
        assert.equal(text, kitText.decode(bytes));
        if (size > 0) assert.deepEqual(Buffer.from(decodeBase58(text)!), Buffer.from(kitBytes.encode(text)));
      }
    }
  });

  it("refuses text that is not base58 or is over the bound before decoding it", () => {
    assert.equal(decodeBase58(""), undefined);
    assert.equal(decodeBase58("0OIl"), undefined);
    assert.equal(decodeBase58("abc€"), undefined);
    assert.equal(decodeBase58("2".repeat(BASE58_MAX_LENGTH + 1)), undefined);
    assert.notEqual(decodeBase58("2".repeat(BASE58_MAX_LENGTH)), undefined);
    assert.equal(decodeBase58("2".repeat(1701), 1700), undefined, "a caller's own bound");
    assert.deepEqual(
      Buffer.from(decodeBase58(`11${"2".repeat(1698)}`, 1700)!),
      Buffer.from(kitBytes.encode(`11${"2".repeat(1698)}`)),
      "a caller's own bound, over the default one",
    );
  });

  it("bytes32 and interop addresses round-trip a key; the OIF chain id is the genesis hash as uint256", () => {
    const key = kitText.decode(randomBytes(32));
    const genesis = kitText.decode(randomBytes(32));
    const hex = solanaKeyToBytes32(key);
    assert.match(hex, /^0x[0-9a-f]{64}$/);
    assert.equal(bytes32ToSolanaKey(hex), key);
    const interop = encodeSolanaInteropAddress(genesis, key);
    assert.equal(interop.length, 2 + 4 + 4 + 2 + 64 + 2 + 64);
    assert.ok(interop.startsWith("0x0001000220"));
    assert.deepEqual(decodeSolanaInteropAddress(interop), { genesisHash: genesis, address: key });
    assert.equal(decodeSolanaInteropAddress(interop.replace("0x00010002", "0x00010000")), undefined);
    assert.equal(solanaOifChainId(genesis), BigInt(solanaKeyToBytes32(genesis)));
  });

  it("the escrow order id binds every term, and the output hash binds the deadline and the output", () => {
    const output = {
      oracle: `0x${"11".repeat(32)}`,
      settler: `0x${"22".repeat(32)}`,
      chainId: 31338n,
      token: `0x${"33".repeat(32)}`,
      amount: 999n,
      recipient: `0x${"44".repeat(32)}`,
      callbackData: "0x",
      context: "0x",
    } as const;
    const outputHash = solanaOutputHash(1_900_000_000, output);
    assert.notEqual(outputHash, solanaOutputHash(1_900_000_001, output));
    assert.notEqual(outputHash, solanaOutputHash(1_900_000_000, { ...output, amount: 998n }));
    const order = {
      user: kitText.decode(randomBytes(32)),
      mint: kitText.decode(randomBytes(32)),
      amount: 1_000_000n,
      expires: 1_900_000_100,
      nonce: 0x0123_4567_89ab_cdefn,
      outputHash,
    };
    const id = solanaEscrowOrderId(order);
    assert.match(id, /^0x[0-9a-f]{64}$/);
    assert.notEqual(id, solanaEscrowOrderId({ ...order, amount: 1_000_001n }));
    assert.notEqual(id, solanaEscrowOrderId({ ...order, expires: order.expires + 1 }));
    assert.notEqual(id, solanaEscrowOrderId({ ...order, nonce: order.nonce + 1n }));
    assert.throws(() => solanaEscrowOrderId({ ...order, nonce: 1n << 64n }), /nonce is a u64/);
    assert.equal(solanaMessageDigest(new Uint8Array([1, 2, 3])).length > 40, true);
  });

  it("the escrow order id is sha256 of the terms laid out as the wire contract writes them", () => {
    const user = randomBytes(32);
    const mint = randomBytes(32);
    const outputHash = randomBytes(32);
    const numbers = Buffer.alloc(24);
    numbers.writeBigUInt64LE(5_000_000n, 0);
    numbers.writeBigUInt64LE(1_900_000_100n, 8);
    numbers.writeBigUInt64LE(0xfedc_ba98_7654_3210n, 16);
    const expected = createHash("sha256")
      .update(Buffer.concat([Buffer.from("intent-hub solana escrow order"), user, mint, numbers, outputHash]))
      .digest("hex");
    const id = solanaEscrowOrderId({
      user: kitText.decode(user),
      mint: kitText.decode(mint),
      amount: 5_000_000n,
      expires: 1_900_000_100,
      nonce: 0xfedc_ba98_7654_3210n,
      outputHash: `0x${outputHash.toString("hex")}`,
    });
    assert.equal(id, `0x${expected}`);
  });
});
