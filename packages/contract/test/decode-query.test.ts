import assert from "node:assert/strict";
import { test } from "node:test";
import { decodeQuery, HubError, listOrdersQuerySchema, onchainRefundQuerySchema } from "../src/index.js";

function reference(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof HubError);
    assert.equal(error.code, "EIN0001");
    return error.reference;
  }
  assert.fail("expected EIN0001");
}

const validRows: Array<[string, Record<string, string | string[] | undefined>, object]> = [
  ["no parameters: limit defaults to 50", {}, { limit: 50 }],
  ["limit 1 is the smallest page", { limit: "1" }, { limit: 1 }],
  ["limit 100 is the largest page", { limit: "100" }, { limit: 100 }],
  ["a cursor is passed through", { cursor: "abc_DEF-1" }, { cursor: "abc_DEF-1", limit: 50 }],
  ["an empty value counts as absent", { cursor: "", limit: "" }, { limit: 50 }],
  ["unknown parameters are ignored", { other: "x" }, { limit: 50 }],
];

for (const [rule, query, expected] of validRows) {
  test(`GET /orders query: ${rule}`, () => {
    assert.deepEqual(decodeQuery(listOrdersQuerySchema, query), expected);
  });
}

const invalidRows: Array<[string, Record<string, string | string[]>, string]> = [
  ["limit 0 is refused", { limit: "0" }, "limit"],
  ["limit 101 is refused", { limit: "101" }, "limit"],
  ["a fractional limit is refused", { limit: "1.5" }, "limit"],
  ["a non-numeric limit is refused", { limit: "ten" }, "limit"],
  ["a repeated limit is refused", { limit: ["1", "2"] }, "limit"],
  ["a cursor with characters outside base64url is refused", { cursor: "a b" }, "cursor"],
  ["cursor is checked before limit", { cursor: "a b", limit: "0" }, "cursor"],
];

for (const [rule, query, expected] of invalidRows) {
  test(`GET /orders query: ${rule} (EIN0001, reference ${expected})`, () => {
    assert.equal(
      reference(() => decodeQuery(listOrdersQuerySchema, query)),
      expected,
    );
  });
}

test("URLSearchParams are read like a parsed query", () => {
  assert.deepEqual(decodeQuery(listOrdersQuerySchema, new URLSearchParams("limit=7&cursor=c")), {
    cursor: "c",
    limit: 7,
  });
});

test("the refund query's chainDomain must be CAIP-2 when sent", () => {
  assert.equal(
    reference(() => decodeQuery(onchainRefundQuerySchema, { chainDomain: "ethereum" })),
    "chainDomain",
  );
  assert.deepEqual(decodeQuery(onchainRefundQuerySchema, { chainDomain: "eip155:31337" }), {
    chainDomain: "eip155:31337",
  });
});
