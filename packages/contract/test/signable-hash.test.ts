import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import fc from "fast-check";
import { canonicalJson, canonicalSha256, freezeCanonicalJson, signableHash } from "../src/index.js";

test("canonical JSON sorts keys at every depth, keeps array order and drops undefined members", () => {
  assert.equal(
    canonicalJson({ b: 1, a: { d: [3, { y: 1, x: 2 }], c: "s" }, u: undefined }),
    '{"a":{"c":"s","d":[3,{"x":2,"y":1}]},"b":1}',
  );
});

test("signableHash is 0x + SHA-256 of the canonical JSON, independent of key order", () => {
  const expected = `0x${createHash("sha256").update('{"amount":"1","kind":"solver-swap"}').digest("hex")}`;
  assert.equal(signableHash({ kind: "solver-swap", amount: "1" }), expected);
  assert.equal(signableHash({ amount: "1", kind: "solver-swap" }), expected);
  assert.match(expected, /^0x[0-9a-f]{64}$/);
});

/** The first canonicalJson, kept as the reference the faster one is held to. */
function referenceCanonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map((item) => referenceCanonicalJson(item ?? null)).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${referenceCanonicalJson(item)}`).join(",")}}`;
}

test("canonical JSON is byte for byte the reference's on any JSON-like value, undefined members and holes included", () => {
  const value = fc.letrec((tie) => ({
    leaf: fc.oneof(
      fc.string({ unit: "binary" }),
      fc.double(),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.constant(undefined),
      fc.date({ noInvalidDate: true }),
    ),
    node: fc.oneof(
      { depthSize: "small" },
      tie("leaf"),
      fc.array(tie("node"), { maxLength: 5 }),
      fc.sparseArray(tie("leaf"), { maxLength: 5 }),
      fc.dictionary(fc.string({ unit: "binary", maxLength: 6 }), tie("node"), { maxKeys: 6 }),
    ),
  })).node;
  fc.assert(
    fc.property(value, (input) => {
      assert.equal(canonicalJson(input), referenceCanonicalJson(input));
    }),
    { numRuns: 3000 },
  );
});

test("canonical JSON is the reference's when parts of the value were frozen with their text kept", () => {
  const value = fc.letrec((tie) => ({
    leaf: fc.oneof(
      fc.string({ unit: "binary", maxLength: 8 }),
      fc.integer(),
      fc.constant(null),
      fc.constant(undefined),
    ),
    node: fc.oneof(
      { depthSize: "small" },
      tie("leaf"),
      tie("frozen"),
      fc.array(tie("node"), { maxLength: 4 }),
      fc.sparseArray(tie("leaf"), { maxLength: 4 }),
      fc.dictionary(fc.string({ unit: "binary", maxLength: 6 }), tie("node"), { maxKeys: 5 }),
    ),
    // Frozen with its text kept, or only frozen (no text kept: written as any other value).
    frozen: fc
      .tuple(
        fc.oneof(
          fc.array(tie("node"), { maxLength: 4 }),
          fc.dictionary(fc.string({ unit: "binary", maxLength: 6 }), tie("node"), { maxKeys: 5 }),
        ),
        fc.boolean(),
      )
      .map(([item, keep]) => (keep ? freezeCanonicalJson(item) : Object.freeze(item))),
  })).node;
  fc.assert(
    fc.property(value, (input) => {
      assert.equal(canonicalJson(input), referenceCanonicalJson(input));
    }),
    { numRuns: 3000 },
  );
});

test("a value whose canonical JSON is kept cannot change at any depth", () => {
  const types = freezeCanonicalJson({ Mandate: [{ name: "user", type: "address" }] });
  assert.throws(() => {
    types.Mandate[0]!.type = "bytes32";
  }, TypeError);
  assert.throws(() => types.Mandate.push({ name: "x", type: "uint256" }), TypeError);
  assert.equal(canonicalJson({ types }), '{"types":{"Mandate":[{"name":"user","type":"address"}]}}');
});

test("canonicalSha256 is createHash's SHA-256 of the canonical JSON's UTF-8, lone surrogates included", () => {
  fc.assert(
    fc.property(
      fc.dictionary(fc.string({ unit: "binary", maxLength: 6 }), fc.string({ unit: "binary" })),
      (input) => {
        const expected = createHash("sha256").update(canonicalJson(input), "utf8").digest("hex");
        assert.equal(canonicalSha256(input), expected);
      },
    ),
    { numRuns: 2000 },
  );
});
