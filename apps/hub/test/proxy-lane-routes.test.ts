import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { type Catalog, HubError } from "@hub/contract";
import { priceProxyRoute } from "../src/providers/proxy-lanes/price-proxy-route.js";
import type { SwapRouterPool, SwapRouterReader } from "../src/providers/proxy-lanes/swap-router-reader.js";
import { type EvmQuoteRoute, resolveQuoteRoute } from "../src/quotes/resolve-quote-route.js";
import { testCatalog } from "./hub-fixture.js";

/** The route of an EVM-to-EVM request (every request of this file is one). */
function resolveEvmRoute(...args: Parameters<typeof resolveQuoteRoute>): EvmQuoteRoute {
  const route = resolveQuoteRoute(...args);
  if (route.direction !== "evm") throw new Error(`expected an EVM route, got ${route.direction}`);
  return route;
}

const CHAIN = "eip155:31337";
const USDC = "0x00000000000000000000000000000000000000aa";
const WETH = "0x00000000000000000000000000000000000000ee";
const UNDECLARED = "0x00000000000000000000000000000000000000cc";
const PROXY = "0x00000000000000000000000000000000000000f1";
const ROUTER = "0x00000000000000000000000000000000000000f2";
const NATIVE_KEY = `${CHAIN}/slip44:60`;
const USDC_KEY = `${CHAIN}/erc20:${USDC}`;
const WETH_KEY = `${CHAIN}/erc20:${WETH}`;
const UNDECLARED_KEY = `${CHAIN}/erc20:${UNDECLARED}`;
const USER = "0x00000000000000000000000000000000000000bb";

/** testCatalog's chain with a wrapped native token, a user proxy and a swap router, minus what `without` names. */
function proxyCatalog(without: ("userProxy" | "swapRouter" | "wrappedKey" | "wrappedAsset")[] = []): Catalog {
  const catalog = testCatalog();
  const chain = catalog.families.evm[0]!;
  if (!without.includes("wrappedAsset")) {
    chain.assets.push({
      key: WETH_KEY,
      symbol: "WETH",
      decimals: 18,
      address: WETH,
      authorizations: ["permit2"],
    });
  }
  if (!without.includes("wrappedKey")) chain.wrappedKey = WETH_KEY;
  if (!without.includes("userProxy")) chain.userProxy = PROXY;
  if (!without.includes("swapRouter")) chain.swapRouter = ROUTER;
  return catalog;
}

function request(sourceAsset: string, extra: Record<string, string> = {}) {
  return {
    sourceAsset,
    destinationAsset: USDC_KEY,
    amount: "100000000000000000123",
    recipient: USER,
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

async function asyncRefusal(run: () => Promise<unknown>): Promise<HubError> {
  try {
    await run();
  } catch (error) {
    assert.ok(error instanceof HubError);
    return error;
  }
  assert.fail("expected a refusal");
}

/** The devnet router's fixed-rate arithmetic (1e18 of the undeclared token per 1e6 USDC) over a pool. */
function fixedRateRouter(pool: SwapRouterPool) {
  const rate = { numerator: 10n ** 6n, denominator: 10n ** 18n };
  const reads: string[] = [];
  const reader: SwapRouterReader = {
    async pool() {
      reads.push("pool");
      return pool;
    },
    async quoteExactInput(_ref, _from, _to, amountIn) {
      reads.push("quoteExactInput");
      return (amountIn * rate.numerator) / rate.denominator;
    },
    async quoteExactOutput(_ref, _from, _to, amountOut) {
      reads.push("quoteExactOutput");
      return (amountOut * rate.denominator + rate.numerator - 1n) / rate.numerator;
    },
  };
  return { reader, reads };
}

describe("proxy-lane route resolution", () => {
  test("each source takes its lane: native coin -> oif-wrap-native, undeclared token -> oif-swap-token, declared tokens -> the signature lanes", () => {
    const catalog = proxyCatalog();
    const rows: [string, string[]][] = [
      [NATIVE_KEY, ["oif-wrap-native"]],
      [UNDECLARED_KEY, ["oif-swap-token"]],
      [USDC_KEY, ["aggregator-gasless", "oif-escrow-gasless"]],
      [WETH_KEY, ["oif-escrow-gasless"]],
    ];
    for (const [source, lanes] of rows) {
      assert.deepEqual(resolveQuoteRoute(catalog, request(source)).lanes, lanes, source);
    }
  });

  test("wrap-native's escrow input is the chain's declared wrapped token; the source stays the native coin", () => {
    const route = resolveEvmRoute(proxyCatalog(), request(NATIVE_KEY));
    assert.equal(route.source.asset.key, NATIVE_KEY);
    assert.equal(route.source.token, "0x0000000000000000000000000000000000000000");
    assert.equal(route.proxy?.lane, "oif-wrap-native");
    assert.equal(route.proxy?.userProxy, PROXY);
    assert.equal(route.proxy?.lane === "oif-wrap-native" && route.proxy.escrowInput.token, WETH);
  });

  test("swap-token's source is the undeclared token (declared false), with the chain's proxy and router", () => {
    const route = resolveEvmRoute(proxyCatalog(), request(UNDECLARED_KEY));
    assert.equal(route.source.declared, false);
    assert.equal(route.source.token, UNDECLARED);
    assert.equal(route.source.asset.key, UNDECLARED_KEY);
    assert.deepEqual(route.proxy, { lane: "oif-swap-token", userProxy: PROXY, swapRouter: ROUTER });
  });

  test("a source no proxy can take is EIN0008 naming why", () => {
    const rows: [Catalog, string, RegExp][] = [
      [proxyCatalog(["userProxy"]), NATIVE_KEY, /native coin takes no gasless lane.*no user proxy/],
      [proxyCatalog(["wrappedKey"]), NATIVE_KEY, /native coin takes no gasless lane/],
      [proxyCatalog(["wrappedAsset"]), NATIVE_KEY, /native coin takes no gasless lane/],
      [proxyCatalog(["swapRouter"]), UNDECLARED_KEY, /is not a declared asset .* no swap router/],
      [
        proxyCatalog(["userProxy"]),
        UNDECLARED_KEY,
        /is not a declared asset .* no swap router and user proxy/,
      ],
      [
        proxyCatalog(),
        `${CHAIN}/erc20:0x00000000000000000000000000000000000000CC`,
        /^sourceAsset: .* is not a declared asset of eip155:31337\.$/,
      ],
      [proxyCatalog(), `${CHAIN}/erc20:0x01`, /^sourceAsset: .* is not a declared asset of eip155:31337\.$/],
      [proxyCatalog(), `${CHAIN}/slip44:61`, /^sourceAsset: .* is not a declared asset of eip155:31337\.$/],
    ];
    for (const [catalog, source, message] of rows) {
      assert.match(
        refusal(() => resolveQuoteRoute(catalog, request(source))),
        message,
        source,
      );
    }
  });

  test("an undeclared token is never a destination", () => {
    assert.match(
      refusal(() =>
        resolveQuoteRoute(proxyCatalog(), { ...request(USDC_KEY), destinationAsset: UNDECLARED_KEY }),
      ),
      /^destinationAsset: .* is not a declared asset/,
    );
  });
});

describe("proxy-lane pricing", () => {
  const pool = { tokenIn: UNDECLARED, tokenOut: USDC } as const;

  test("wrap-native asks the upstream for the wrapped token, same amount and swap type, with no chain read", async () => {
    const route = resolveEvmRoute(proxyCatalog(), request(NATIVE_KEY, { swapType: "exact-output" }));
    const { reader, reads } = fixedRateRouter(pool);
    const leg = await priceProxyRoute(route, reader);
    assert.equal(leg.upstreamRoute.source.token, WETH);
    assert.equal(leg.upstreamRoute.amount, route.amount);
    assert.equal(leg.upstreamRoute.swapType, "exact-output");
    assert.deepEqual(leg.upstreamRoute.lanes, ["oif-wrap-native"]);
    assert.equal(leg.upstreamRoute.proxy, undefined);
    assert.equal(leg.swap, undefined);
    assert.deepEqual(reads, []);
  });

  test("swap-token exact-input: the upstream amount is quoteExactInput(amount) of the declared token; the user pays amountMax = quoteExactOutput of it, at most the amount", async () => {
    const route = resolveEvmRoute(proxyCatalog(), request(UNDECLARED_KEY));
    const { reader } = fixedRateRouter(pool);
    const leg = await priceProxyRoute(route, reader);
    assert.equal(leg.upstreamRoute.source.token, USDC);
    assert.equal(leg.upstreamRoute.source.asset.key, USDC_KEY);
    assert.equal(leg.upstreamRoute.amount, 100_000_000n, "100.000000000000000123 swaps into 100 USDC");
    assert.deepEqual(await leg.swap!.costOf(100_000_000n), {
      amountIn: 100_000_000_000_000_000_123n,
      amountMax: 100_000_000_000_000_000_000n,
    });
  });

  test("swap-token exact-output: the upstream is asked for the output; each escrow input costs quoteExactOutput of it (amountIn = amountMax)", async () => {
    const route = resolveEvmRoute(
      proxyCatalog(),
      request(UNDECLARED_KEY, { swapType: "exact-output", amount: "5000000" }),
    );
    const { reader } = fixedRateRouter(pool);
    const leg = await priceProxyRoute(route, reader);
    assert.equal(leg.upstreamRoute.amount, 5_000_000n);
    assert.equal(leg.upstreamRoute.swapType, "exact-output");
    assert.deepEqual(await leg.swap!.costOf(5_015_045n), {
      amountIn: 5_015_045_000_000_000_000n,
      amountMax: 5_015_045_000_000_000_000n,
    });
  });

  test("a router that does not take the token, swaps into an undeclared token, yields nothing, or prices above the amount is EIN0008", async () => {
    const route = resolveEvmRoute(proxyCatalog(), request(UNDECLARED_KEY));
    const rows: [ReturnType<typeof fixedRateRouter>["reader"], Record<string, string>, RegExp][] = [
      [fixedRateRouter({ tokenIn: USDC, tokenOut: WETH }).reader, {}, /does not take .* it takes only/],
      [
        fixedRateRouter({ tokenIn: UNDECLARED, tokenOut: "0x00000000000000000000000000000000000000dd" })
          .reader,
        {},
        /swaps into 0x0+dd, which the catalog does not declare/,
      ],
      [fixedRateRouter(pool).reader, { amount: "999999999999" }, /swaps into 0 USDC/],
    ];
    for (const [reader, extra, message] of rows) {
      const priced = { ...route, ...(extra.amount ? { amount: BigInt(extra.amount) } : {}) };
      const error = await asyncRefusal(() => priceProxyRoute(priced, reader));
      assert.equal(error.code, "EIN0008");
      assert.match(error.message, message);
    }
    const inconsistent: SwapRouterReader = {
      ...fixedRateRouter(pool).reader,
      async quoteExactOutput() {
        return route.amount + 1n;
      },
    };
    const error = await asyncRefusal(() => priceProxyRoute(route, inconsistent));
    assert.equal(error.code, "EIN0008");
    assert.match(error.message, /more than the amount/);
  });
});
