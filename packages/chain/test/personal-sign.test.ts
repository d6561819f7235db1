import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, it } from "node:test";
import { verifyMessage } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { personalSignRecovery, verifyPersonalSign } from "../src/index.js";

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const word = (value: bigint) => value.toString(16).padStart(64, "0");

/** The verdict of viem's verifyMessage, a throw counted as false (as the open flow does). */
async function viemVerdict(input: { address: `0x${string}`; message: string; signature: `0x${string}` }) {
  try {
    return await verifyMessage(input);
  } catch {
    return false;
  }
}

async function holdsToViem(input: { address: `0x${string}`; message: string; signature: `0x${string}` }) {
  let ours: boolean;
  try {
    ours = await verifyPersonalSign(input);
  } catch {
    ours = false;
  }
  assert.equal(ours, await viemVerdict(input), `${input.signature} over ${JSON.stringify(input.message)}`);
  return ours;
}

describe("verifyPersonalSign", () => {
  it("recovers with libsecp256k1 on this machine (the prebuilt addon loads without an install script)", () => {
    assert.equal(personalSignRecovery, "libsecp256k1");
  });

  it("gives viem's verdict on real signatures, other signers, other messages and every v spelling", async () => {
    let valid = 0;
    for (let i = 0; i < 24; i += 1) {
      const account = privateKeyToAccount(generatePrivateKey());
      const other = privateKeyToAccount(generatePrivateKey());
      const message = i % 3 === 0 ? `quote ${i} ✓ ünïcode \u{1F600} ${"x".repeat(i * 7)}` : `intent ${i}`;
      const signature = await account.signMessage({ message });
      const v = Number.parseInt(signature.slice(130), 16);
      const body = signature.slice(0, 130);
      const spellings = [v, v - 27, v === 27 ? 28 : 27, v === 27 ? 1 : 0, 2, 29, 255].map(
        (value) => `${body}${value.toString(16).padStart(2, "0")}` as `0x${string}`,
      );
      for (const spelled of spellings) {
        for (const address of [
          account.address,
          account.address.toLowerCase() as `0x${string}`,
          other.address,
        ]) {
          if (await holdsToViem({ address, message, signature: spelled })) valid += 1;
        }
        await holdsToViem({ address: account.address, message: `${message}.`, signature: spelled });
      }
    }
    assert.ok(valid >= 24 * 4, `only ${valid} valid verdicts`);
  });

  it("gives viem's verdict on malformed and out-of-range signatures", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const message = "the hub's signIntent";
    const signature = await account.signMessage({ message });
    const r = BigInt(`0x${signature.slice(2, 66)}`);
    const s = BigInt(`0x${signature.slice(66, 130)}`);
    const v = signature.slice(130);
    const make = (rr: bigint, ss: bigint, vv = v) => `0x${word(rr)}${word(ss)}${vv}` as `0x${string}`;
    const cases: `0x${string}`[] = [
      make(r, N - s),
      make(r, N - s, v === "1b" ? "1c" : "1b"),
      make(0n, s),
      make(r, 0n),
      make(N, s),
      make(r, N),
      make(N + 1n, s),
      make(r, N + 1n),
      make(2n ** 256n - 1n, s),
      make(r + N, s),
      make(5n, s),
      make(1n, 1n),
      signature.slice(0, 128) as `0x${string}`,
      `${signature}00` as `0x${string}`,
      `0x${signature.slice(4)}` as `0x${string}`,
      signature.toUpperCase().replace("0X", "0x") as `0x${string}`,
      `0x${randomBytes(65).toString("hex")}` as `0x${string}`,
    ];
    for (let i = 0; i < 30; i += 1) cases.push(make(BigInt(`0x${randomBytes(32).toString("hex")}`), s));
    for (const candidate of cases)
      await holdsToViem({ address: account.address, message, signature: candidate });
  });
});
