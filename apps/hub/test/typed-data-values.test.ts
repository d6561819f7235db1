import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  PERMIT2_WIRE_TYPES,
  typesAreExactly,
} from "../src/providers/oif-aggregator/expected-typed-data-types.js";
import { QuoteRejection } from "../src/quotes/quote-rejection.js";
import { requireKeys } from "../src/providers/oif-aggregator/typed-data-values.js";

describe("an upstream's typed data keeps exactly the keys the hub signs", () => {
  const keys = ["token", "amount"];
  const rows: { name: string; value: Record<string, unknown>; refusal?: string }[] = [
    { name: "the same keys", value: { token: "0x", amount: "1" } },
    { name: "the same keys in another order", value: { amount: "1", token: "0x" } },
    {
      name: "a key missing",
      value: { token: "0x" },
      refusal: "permitted[0] has keys token, expected amount,token",
    },
    {
      name: "a stray key",
      value: { token: "0x", amount: "1", extra: true },
      refusal: "permitted[0] has keys amount,extra,token, expected amount,token",
    },
    {
      name: "a key replaced by another",
      value: { token: "0x", amounts: "1" },
      refusal: "permitted[0] has keys amounts,token, expected amount,token",
    },
    {
      name: "a __proto__ key from JSON",
      value: JSON.parse('{"token":"0x","__proto__":"1"}'),
      refusal: "permitted[0] has keys __proto__,token, expected amount,token",
    },
  ];
  for (const row of rows) {
    test(`requireKeys: ${row.name}`, () => {
      if (row.refusal === undefined) {
        requireKeys(row.value, keys, "permitted[0]", "input");
        return;
      }
      assert.throws(
        () => requireKeys(row.value, keys, "permitted[0]", "input"),
        (error) =>
          error instanceof QuoteRejection && error.reason === "input" && error.detail === row.refusal,
      );
    });
  }

  test("typesAreExactly takes the structure's own fields and refuses a field with another key", () => {
    const wire = JSON.parse(JSON.stringify(PERMIT2_WIRE_TYPES)) as Record<string, Record<string, unknown>[]>;
    assert.equal(typesAreExactly(wire, PERMIT2_WIRE_TYPES), true);
    const { EIP712Domain: _domain, ...withoutDomain } = wire;
    assert.equal(typesAreExactly(withoutDomain, PERMIT2_WIRE_TYPES), true);
    const stray = structuredClone(wire);
    stray.TokenPermissions![0]!.internal = "x";
    assert.equal(typesAreExactly(stray, PERMIT2_WIRE_TYPES), false);
    const renamed = structuredClone(wire);
    renamed.TokenPermissions![1]!.name = "value";
    assert.equal(typesAreExactly(renamed, PERMIT2_WIRE_TYPES), false);
    const undefinedKey = structuredClone(wire);
    undefinedKey.TokenPermissions![0]!.extra = undefined;
    assert.equal(typesAreExactly(undefinedKey, PERMIT2_WIRE_TYPES), false);
  });
});
