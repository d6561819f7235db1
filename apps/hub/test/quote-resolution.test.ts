import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { HubError } from "@hub/contract";
import type { VettedOifQuote } from "../src/providers/oif-aggregator/vet-oif-quote.js";
import { compareQuotes } from "../src/quotes/rank-quotes.js";
import { type EvmQuoteRoute, resolveQuoteRoute } from "../src/quotes/resolve-quote-route.js";
import { devnetProvider, devnetProviders, parseProvidersConfig } from "../src/providers/index.js";
import { testCatalog } from "./hub-fixture.js";

/** The route of an EVM-to-EVM request (every request of this file is one). */
function resolveEvmRoute(...args: Parameters<typeof resolveQuoteRoute>): EvmQuoteRoute {
  const route = resolveQuoteRoute(...args);
  if (route.direction !== "evm") throw new Error(`expected an EVM route, got ${route.direction}`);
  return route;
}

const USDC = "eip155:31337/erc20:0x00000000000000000000000000000000000000aa";
const NATIVE = "eip155:31337/slip44:60";
const RECIPIENT = "0x00000000000000000000000000000000000000BB";

function request(extra: Record<string, string> = {}) {
  return {
    sourceAsset: USDC,
    destinationAsset: NATIVE,
    amount: "1000",
    recipient: RECIPIENT,
    swapType: "exact-input" as const,
    ...extra,
  };
}

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof HubError);
    assert.equal(error.code, "EIN0008");
    return error.message;
  }
  assert.fail("expected EIN0008");
}

describe("quote route resolution against the catalog", () => {
  test("the source asset is checked first: an unknown source chain wins over an unknown destination", () => {
    const message = refusal(() =>
      resolveQuoteRoute(
        testCatalog(),
        request({ sourceAsset: "eip155:1/erc20:0x01", destinationAsset: "eip155:2/erc20:0x02" }),
      ),
    );
    assert.match(message, /^sourceAsset: eip155:1 is not a chain of the catalog/);
  });

  test("then the asset on its chain, then the destination, then the lane, then the accounts", () => {
    const catalog = testCatalog();
    assert.match(
      refusal(() => resolveQuoteRoute(catalog, request({ sourceAsset: "eip155:31337/erc20:0x01" }))),
      /^sourceAsset: .* is not a declared asset/,
    );
    assert.match(
      refusal(() => resolveQuoteRoute(catalog, request({ destinationAsset: "eip155:31337/erc20:0x02" }))),
      /^destinationAsset: /,
    );
    assert.match(
      refusal(() => resolveQuoteRoute(catalog, request({ sourceAsset: NATIVE, recipient: "0x1" }))),
      /native coin takes no gasless lane/,
    );
    assert.match(
      refusal(() => resolveQuoteRoute(catalog, request({ recipient: "0x1" }))),
      /^recipient: /,
    );
    assert.match(
      refusal(() => resolveQuoteRoute(catalog, request({ sourceAccount: "bob" }))),
      /^sourceAccount: /,
    );
  });

  test("a miscased asset key is unknown (CAIP-19 keys compare exactly)", () => {
    refusal(() => resolveQuoteRoute(testCatalog(), request({ sourceAsset: USDC.toUpperCase() })));
  });

  test("an EIP-3009 token takes both lanes, EIP-3009 first; a Permit2-only token takes one", () => {
    const catalog = testCatalog();
    assert.deepEqual(resolveQuoteRoute(catalog, request()).lanes, [
      "aggregator-gasless",
      "oif-escrow-gasless",
    ]);
    catalog.families.evm[0]!.assets[0]!.authorizations = ["permit2"];
    assert.deepEqual(resolveQuoteRoute(catalog, request()).lanes, ["oif-escrow-gasless"]);
  });

  test("without sourceAccount the recipient pays; addresses are lowercased", () => {
    const route = resolveEvmRoute(testCatalog(), request());
    assert.equal(route.user, RECIPIENT.toLowerCase());
    assert.equal(route.recipient, RECIPIENT.toLowerCase());
    assert.equal(route.sourceAccountSent, false);
    assert.equal(
      route.destination.token,
      "0x0000000000000000000000000000000000000000",
      "native output token is 0",
    );
  });
});

describe("providers configuration", () => {
  test("defaults fill in: the specification's dialect, 5 s timeout, both products, enabled, no headers", () => {
    const [provider] = parseProvidersConfig([
      { id: "a", kind: "oif-aggregator", baseUrl: "http://x:1/agg/" },
    ]);
    assert.deepEqual(provider, {
      id: "a",
      kind: "oif-aggregator",
      dialect: "oif-spec-1",
      baseUrl: "http://x:1/agg",
      headers: {},
      timeoutMs: 5000,
      products: ["oif-escrow-v0", "oif-3009-v0"],
      connections: 16,
      enabled: true,
    });
  });

  test("a devnet URL becomes the provider at the mount of its dialect's aggregator", () => {
    assert.equal(devnetProvider("http://127.0.0.1:4000/").baseUrl, "http://127.0.0.1:4000/spec/aggregator");
    assert.equal(devnetProvider("http://127.0.0.1:4000").id, "devnet");
    const reference = devnetProvider("http://127.0.0.1:4000", { dialect: "oif-aggregator" });
    assert.equal(reference.baseUrl, "http://127.0.0.1:4000/aggregator");
    assert.deepEqual(
      devnetProviders("http://127.0.0.1:4000").map((p) => [p.id, p.dialect, p.baseUrl]),
      [
        ["devnet", "oif-spec-1", "http://127.0.0.1:4000/spec/aggregator"],
        ["devnet-reference", "oif-aggregator", "http://127.0.0.1:4000/aggregator"],
      ],
    );
  });

  test("a dialect other than the two is refused", () => {
    assert.throws(
      () => parseProvidersConfig([{ id: "a", baseUrl: "http://x:1", dialect: "oif-v0" }]),
      /providers\.0\.dialect/,
    );
  });

  test("every problem of the entries is listed at once: a dotted id, a bad URL, an unknown product", () => {
    assert.throws(
      () =>
        parseProvidersConfig([
          { id: "a.b", kind: "oif-aggregator", baseUrl: "ftp://x", products: ["across"] },
          { id: "c", kind: "oif-aggregator", baseUrl: "ftp://y" },
        ]),
      (error: Error) =>
        /providers\.0\.id/.test(error.message) &&
        /providers\.0\.baseUrl/.test(error.message) &&
        /providers\.0\.products/.test(error.message) &&
        /providers\.1\.baseUrl/.test(error.message),
    );
  });

  test("provider ids are unique", () => {
    const entry = { id: "c", kind: "oif-aggregator" as const, baseUrl: "http://x" };
    assert.throws(() => parseProvidersConfig([entry, entry]), /provider ids must be unique/);
  });
});

describe("ranking of vetted quotes", () => {
  const quote = (fields: Partial<VettedOifQuote>) =>
    ({
      offerProvider: "p.a",
      lane: "oif-escrow-gasless",
      inputAmount: 1000n,
      outputAmount: 990n,
      etaSeconds: 30,
      upstreamQuoteId: "q",
      ...fields,
    }) as VettedOifQuote;
  const rows: [string, Partial<VettedOifQuote>, Partial<VettedOifQuote>, "exact-input" | "exact-output"][] = [
    ["more output wins on exact-input", { outputAmount: 991n, etaSeconds: 90 }, {}, "exact-input"],
    ["less input wins on exact-output", { inputAmount: 999n, etaSeconds: 90 }, {}, "exact-output"],
    ["equal output: the shorter eta wins", { etaSeconds: 10 }, {}, "exact-input"],
    ["an eta beats none", {}, { etaSeconds: undefined }, "exact-input"],
    ["equal terms: the EIP-3009 lane wins", { lane: "aggregator-gasless" }, {}, "exact-input"],
    [
      "all else equal: the provider id decides",
      { offerProvider: "p.a" },
      { offerProvider: "p.b" },
      "exact-input",
    ],
  ];
  for (const [name, better, worse, swapType] of rows) {
    test(name, () => {
      assert.ok(compareQuotes(quote(better), quote(worse), swapType) < 0);
      assert.ok(compareQuotes(quote(worse), quote(better), swapType) > 0);
    });
  }
});
