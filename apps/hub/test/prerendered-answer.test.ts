import assert from "node:assert/strict";
import { test } from "node:test";
import { successEnvelope } from "@hub/contract";
import { PrerenderedJson, successAnswer } from "../src/http/answer.js";

test("a prerendered success answer is the bytes of the serialized envelope, for ASCII and non-ASCII request ids", () => {
  const data = { chains: [1, "é", "\u2028"], name: "x" };
  const prerendered = new PrerenderedJson(JSON.stringify(data));
  const ids = [
    "abc",
    "a\tb",
    "a\x7fb",
    'a"b\\c',
    "é",
    "\u2028",
    "😀x",
    "\ud800",
    "x".repeat(128),
    "0".repeat(9000),
  ];
  // Enough rounds to run through more than one slab.
  for (let round = 0; round < 400; round++) {
    for (const id of ids) {
      const answer = successAnswer(prerendered, id);
      const expected = Buffer.from(JSON.stringify(successEnvelope(data, id)), "utf8");
      assert.deepEqual(answer.body, expected, id);
      assert.equal(answer.headers["content-length"], String(expected.length));
    }
  }
});
