import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import { canonicalJson, signableHash } from "../src/index.js";

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
