import assert from "node:assert/strict";
import { randomBytes, randomInt } from "node:crypto";
import { describe, it } from "node:test";
import { getAddress, hashTypedData } from "viem";
import { createTypedDataHasher, permit2WitnessTypes, receiveWithAuthorizationTypes } from "../src/index.js";
import { createReferenceTypedDataHasher } from "./reference-typed-data-hasher.js";

const hex = (bytes: number) => `0x${randomBytes(bytes).toString("hex")}`;
const uint = (bytes: number) => BigInt(hex(bytes)).toString();

const permit2Types = {
  EIP712Domain: [
    { name: "name", type: "string" },
    { name: "chainId", type: "uint256" },
    { name: "verifyingContract", type: "address" },
  ],
  ...permit2WitnessTypes,
};
const eip3009Types = {
  EIP712Domain: [
    { name: "name", type: "string" },
    { name: "version", type: "string" },
    { name: "chainId", type: "uint256" },
    { name: "verifyingContract", type: "address" },
  ],
  ...receiveWithAuthorizationTypes,
};

function permit2Payload(outputs: number) {
  return {
    domain: { name: "Permit2", chainId: 1 + (randomBytes(1)[0]! % 3), verifyingContract: hex(20) },
    types: permit2Types,
    primaryType: "PermitBatchWitnessTransferFrom",
    message: {
      permitted: [{ token: hex(20), amount: uint(32) }],
      spender: hex(20),
      nonce: uint(16),
      deadline: uint(4),
      witness: {
        user: hex(20),
        expires: randomBytes(4).readUInt32BE(),
        inputOracle: hex(20),
        outputs: Array.from({ length: outputs }, (_, i) => ({
          oracle: hex(32),
          settler: hex(32),
          chainId: uint(2),
          token: hex(32),
          amount: uint(i + 1),
          recipient: hex(32),
          callbackData: i % 2 === 0 ? "0x" : hex(i * 7),
          context: i % 3 === 0 ? "0x" : hex(33),
        })),
      },
    },
  };
}

function eip3009Payload() {
  return {
    domain: {
      name: `Token ${randomBytes(2).toString("hex")} ✓`,
      version: "2",
      chainId: 31337,
      verifyingContract: hex(20),
    },
    types: eip3009Types,
    primaryType: "ReceiveWithAuthorization",
    message: {
      from: hex(20),
      to: hex(20),
      value: uint(32),
      validAfter: "0",
      validBefore: uint(4),
      nonce: hex(32),
    },
  };
}

/** Each kind of typed data the hasher serves, with a maker of a random payload of that kind. */
const BOTH_KINDS = [
  [permit2Types, () => permit2Payload(1 + randomInt(0, 3))],
  [eip3009Types, eip3009Payload],
] as const;

describe("typed data hasher", () => {
  it("hashes Permit2 batch witness typed data as viem does, for one to three outputs and repeated domains", () => {
    const hash = createTypedDataHasher(permit2Types, 2);
    for (let i = 0; i < 60; i += 1) {
      const payload = permit2Payload(1 + (i % 3));
      assert.equal(hash.hash(payload), hashTypedData(payload as Parameters<typeof hashTypedData>[0]));
    }
  });

  it("hashes ReceiveWithAuthorization typed data under a token's domain as viem does", () => {
    const hash = createTypedDataHasher(eip3009Types);
    for (let i = 0; i < 40; i += 1) {
      const payload = eip3009Payload();
      assert.equal(hash.hash(payload), hashTypedData(payload as Parameters<typeof hashTypedData>[0]));
    }
  });

  it("judges typed data the same only when every value encodes the same: a uint as a number or its decimal string", () => {
    const { holdsSameValues } = createTypedDataHasher(permit2Types);
    const known = permit2Payload(2);
    const copy = () => JSON.parse(JSON.stringify(known)) as ReturnType<typeof permit2Payload>;
    assert.ok(holdsSameValues(copy(), known));

    const numbers = copy();
    numbers.domain.chainId = String(known.domain.chainId) as unknown as number;
    numbers.message.witness.outputs[0]!.chainId = Number(
      known.message.witness.outputs[0]!.chainId,
    ) as unknown as string;
    assert.ok(holdsSameValues(numbers, known));
    assert.equal(
      hashTypedData(numbers as Parameters<typeof hashTypedData>[0]),
      hashTypedData(known as Parameters<typeof hashTypedData>[0]),
    );

    const checksummed = copy();
    checksummed.message.spender = getAddress(known.message.spender);
    assert.equal(holdsSameValues(checksummed, known), false);
    const strayKey = copy();
    (strayKey.message.witness as Record<string, unknown>).extra = 1;
    assert.equal(holdsSameValues(strayKey, known), false);
    const otherAmount = copy();
    otherAmount.message.permitted[0]!.amount = `${known.message.permitted[0]!.amount}0`;
    assert.equal(holdsSameValues(otherAmount, known), false);
    const fewerOutputs = copy();
    fewerOutputs.message.witness.outputs.pop();
    assert.equal(holdsSameValues(fewerOutputs, known), false);
  });

  it("refuses a type it does not encode instead of hashing it wrongly", () => {
    const hash = createTypedDataHasher({
      EIP712Domain: [{ name: "name", type: "string" }],
      M: [{ name: "b", type: "bool" }],
    });
    assert.throws(
      () => hash.hash({ domain: { name: "x" }, primaryType: "M", message: { b: true } }),
      /unsupported type bool/,
    );
  });

  it("hashes any value, plain or not, as the hasher did before its fast path: the same hash or the same error", () => {
    for (const [types, payload] of BOTH_KINDS) {
      const hasher = createTypedDataHasher(types, 4);
      const reference = createReferenceTypedDataHasher(types, 4);
      for (let i = 0; i < 1500; i += 1) {
        const typedData = oddly(payload());
        assert.deepEqual(
          outcome(() => hasher.hash(typedData)),
          outcome(() => reference.hash(typedData)),
        );
      }
    }
  });

  it("judges odd values the same as the hasher did before its fast path", () => {
    for (const [types, payload] of BOTH_KINDS) {
      const hasher = createTypedDataHasher(types);
      const reference = createReferenceTypedDataHasher(types);
      for (let i = 0; i < 1500; i += 1) {
        const known = payload();
        const given = oddly(JSON.parse(JSON.stringify(known)) as typeof known);
        assert.deepEqual(
          outcome(() => hasher.holdsSameValues(given, known)),
          outcome(() => reference.holdsSameValues(given, known)),
        );
      }
    }
  });

  it("hashes bytes longer than its buffer, whole or not, as before", () => {
    const reference = createReferenceTypedDataHasher(permit2Types);
    for (const length of [3000, 40000]) {
      for (const tail of ["", "c"]) {
        const hasher = createTypedDataHasher(permit2Types);
        const typedData = permit2Payload(2);
        typedData.message.witness.outputs[1]!.context = `0x${"ab".repeat(length)}${tail}`;
        assert.deepEqual(
          outcome(() => hasher.hash(typedData)),
          outcome(() => reference.hash(typedData)),
        );
      }
    }
  });

  it("takes a kept struct or array hash only for the very values it last hashed: one value changed at a time, any field", () => {
    for (const [types, payload] of BOTH_KINDS) {
      const hasher = createTypedDataHasher(types);
      const reference = createReferenceTypedDataHasher(types);
      let typedData: Record<string, unknown> = payload();
      for (let i = 0; i < 1500; i += 1) {
        // Most steps change one value of the last payload (often within the permitted token and amount
        // every quote of a round shares); some repeat it as it was, some give a fresh payload.
        const step = randomInt(0, 10);
        if (step === 0) typedData = payload();
        else if (step > 1) typedData = withOneValueChanged(typedData, payload());
        assert.deepEqual(
          outcome(() => hasher.hash(typedData as ReturnType<typeof payload>)),
          outcome(() => reference.hash(typedData as ReturnType<typeof payload>)),
        );
      }
    }
  });

  it("hashes quotes that share their permitted token and amount as viem does, a uint as a number or its string", () => {
    const hasher = createTypedDataHasher(permit2Types);
    const shared = permit2Payload(1).message.permitted[0]!;
    const amounts = [shared.amount, Number(shared.amount) === 0 ? 0 : shared.amount, "1", 1, -0, "0", 0];
    for (let i = 0; i < 60; i += 1) {
      const payload = permit2Payload(1 + (i % 2));
      const amount = amounts[i % amounts.length]!;
      payload.message.permitted = [{ token: shared.token, amount: amount as string }];
      assert.equal(
        hasher.hash(payload),
        hashTypedData({
          ...payload,
          message: { ...payload.message, permitted: [{ token: shared.token, amount: BigInt(amount) }] },
        } as Parameters<typeof hashTypedData>[0]),
      );
    }
  });

  it("hashes each domain under a cache of a few domains, domains coming back, as viem does", () => {
    const hasher = createTypedDataHasher(eip3009Types, 2);
    const domains = Array.from({ length: 3 }, () => eip3009Payload().domain);
    for (let i = 0; i < 30; i += 1) {
      const payload = { ...eip3009Payload(), domain: { ...domains[randomInt(0, 3)]! } };
      assert.equal(hasher.hash(payload), hashTypedData(payload as Parameters<typeof hashTypedData>[0]));
    }
  });
});

/** A deep copy of `typedData` with one value (an object's field or an array's item) taken from `other` or made odd. */
function withOneValueChanged(
  typedData: Record<string, unknown>,
  other: Record<string, unknown>,
): Record<string, unknown> {
  const copy = JSON.parse(JSON.stringify(typedData)) as Record<string, unknown>;
  const places: [Record<string, unknown> | unknown[], string | number, unknown][] = [];
  const visit = (value: unknown, source: unknown): void => {
    if (typeof value !== "object" || value === null) return;
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const from = (source as Record<string, unknown> | undefined)?.[key];
      places.push([record, key, from]);
      visit(record[key], typeof from === "object" ? from : undefined);
    }
  };
  visit(copy.domain, other.domain);
  visit(copy.message, other.message);
  const [holder, key, from] = places[randomInt(0, places.length)]!;
  const current = (holder as Record<string | number, unknown>)[key];
  const choices: unknown[] = [from ?? current, typeof current === "string" ? current.toUpperCase() : current];
  if (typeof current === "string" && /^[0-9]+$/.test(current)) choices.push(Number(current), `${current}0`);
  if (typeof current === "number") choices.push(String(current), current + 1);
  if (Array.isArray(current)) choices.push([...current, ...current], current.slice(1));
  (holder as Record<string | number, unknown>)[key] = choices[randomInt(0, choices.length)];
  return copy;
}

/** The hash, or the error's class and message. */
function outcome(run: () => unknown): unknown {
  try {
    return { value: run() };
  } catch (error) {
    return { error: (error as Error).constructor.name, message: (error as Error).message };
  }
}

/** Another form of a value: a spelling EIP-712 may or may not read the same way, or no such value at all. */
function oddValue(value: unknown): unknown {
  const text = typeof value === "string" ? value : String(value);
  const odd: unknown[] = [
    text.toUpperCase(),
    `0X${text.slice(2)}`,
    text.slice(0, -1),
    text.slice(0, -2),
    `${text}00`,
    `${text.slice(0, -1)}g`,
    text.slice(2),
    "",
    "0x",
    ` ${text}`,
    `00${text}`,
    "0x1f",
    "1e3",
    "-5",
    "1".repeat(78),
    "9".repeat(78),
    "9".repeat(16),
    Number(text),
    -1,
    1.5,
    2 ** 53,
    2 ** 60,
    Number.NaN,
    5n,
    1n << 200n,
    undefined,
    null,
    true,
    {},
    [],
    [value],
    [value, value],
    [undefined],
    new Array(1),
    typeof value === "object" && value !== null ? { ...value, extra: 1 } : { value },
    typeof value === "object" && value !== null ? Object.fromEntries(Object.entries(value).slice(1)) : value,
  ];
  return odd[randomInt(0, odd.length)];
}

/** The payload with one value, anywhere in its domain or message, in another form. */
function oddly<T extends { domain: object; message: object }>(payload: T): T {
  const places: [Record<string, unknown>, string][] = [];
  const visit = (value: unknown) => {
    if (typeof value !== "object" || value === null) return;
    for (const key of Object.keys(value)) {
      places.push([value as Record<string, unknown>, key]);
      visit((value as Record<string, unknown>)[key]);
    }
  };
  visit(payload.domain);
  visit(payload.message);
  const [parent, key] = places[randomInt(0, places.length)]!;
  parent[key] = oddValue(parent[key]);
  return payload;
}
