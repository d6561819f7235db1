import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import {
  oifQuoteResponseSchema,
  parseOifQuoteResponse,
} from "../src/providers/oif-aggregator/oif-quote-response.js";

const quote = {
  quoteId: "q-1",
  solverId: "solver-a",
  order: {
    type: "oif-escrow-v0",
    payload: {
      signatureType: "eip712",
      domain: { name: "Permit2", chainId: 31337, verifyingContract: `0x${"22".repeat(20)}` },
      primaryType: "PermitBatchWitnessTransferFrom",
      message: { spender: `0x${"33".repeat(20)}`, nonce: "7", witness: { outputs: [] } },
      types: { TokenPermissions: [{ name: "token", type: "address" }] },
    },
    metadata: { user: `0x${"44".repeat(20)}` },
  },
  validUntil: 1_900_000_000,
  eta: 12,
  provider: "p",
  partialFill: false,
  preview: { inputs: [{ asset: "0x01", amount: "100" }], outputs: [{ asset: "0x02" }] },
  integrityChecksum: "sum",
  extra: { kept: true },
};

/** Every path into the quote's objects, e.g. ["order", "payload", "domain"]. */
function pathsOf(value: unknown, at: string[] = []): string[][] {
  if (typeof value !== "object" || value === null) return [at];
  return [at, ...Object.entries(value).flatMap(([key, item]) => pathsOf(item, [...at, key]))];
}

const replacements: unknown[] = [
  undefined,
  null,
  "",
  "x",
  0,
  -1,
  1.5,
  2 ** 60,
  Number.NaN,
  true,
  [],
  [{}],
  {},
  { asset: 1 },
  JSON.parse('{"__proto__": {"eta": 5}}'),
  Object.create(null),
  new Date(0),
];

/** The quote with one value replaced, one key removed, or a `__proto__` key added (as JSON.parse makes it). */
function mutated(path: string[], action: "replace" | "remove" | "proto", replacement: unknown): unknown {
  const copy = structuredClone(quote) as Record<string, unknown>;
  if (path.length === 0) return action === "replace" ? replacement : copy;
  let parent: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
  const last = path[path.length - 1]!;
  if (action === "remove") delete parent[last];
  else if (action === "replace") parent[last] = replacement;
  else if (typeof parent[last] === "object" && parent[last] !== null) {
    Object.defineProperty(parent[last], "__proto__", { value: { eta: 1 }, enumerable: true, writable: true });
  }
  return copy;
}

describe("parseOifQuoteResponse", () => {
  test("gives zod's verdict, issues and data on every one-place change of a quote", () => {
    const paths = pathsOf(quote);
    fc.assert(
      fc.property(
        fc.constantFrom(...paths),
        fc.constantFrom("replace", "remove", "proto"),
        fc.constantFrom(...replacements),
        (path, action, replacement) => {
          const raw = mutated(path, action as "replace" | "remove" | "proto", replacement);
          const ours = parseOifQuoteResponse(raw);
          const zods = oifQuoteResponseSchema.safeParse(raw);
          assert.equal(ours.success, zods.success);
          if (ours.success && zods.success) assert.deepStrictEqual(ours.data, zods.data);
          else assert.deepStrictEqual(ours.error?.issues, zods.error?.issues);
        },
      ),
      { numRuns: 2000 },
    );
  });

  test("reads a plain JSON quote as received, without a copy", () => {
    const raw = JSON.parse(JSON.stringify(quote));
    const parsed = parseOifQuoteResponse(raw);
    assert.ok(parsed.success);
    assert.equal(parsed.data, raw);
    assert.deepStrictEqual(oifQuoteResponseSchema.parse(raw), raw);
  });
});
