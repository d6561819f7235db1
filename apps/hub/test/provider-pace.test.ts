import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { systemClock } from "@hub/clock";
import { pino } from "pino";
import { Registry } from "prom-client";
import { askOifProviders, type OifProvidersDeps } from "../src/providers/oif-aggregator/ask-oif-providers.js";
import {
  createProviderPace,
  type ProviderPace,
  slowestProvider,
} from "../src/providers/oif-aggregator/provider-pace.js";
import { createQuoteMetrics } from "../src/quotes/quote-metrics.js";
import { resolveQuoteRoute } from "../src/quotes/resolve-quote-route.js";
import {
  devnetProvider,
  type OifAggregatorClient,
  type OifQuoteRequest,
  type QuoteOutcome,
} from "../src/providers/index.js";
import { testCatalog } from "./hub-fixture.js";

const route = resolveQuoteRoute(testCatalog(), {
  sourceAsset: "eip155:31337/erc20:0x00000000000000000000000000000000000000aa",
  destinationAsset: "eip155:31337/slip44:60",
  amount: "1000",
  recipient: "0x00000000000000000000000000000000000000BB",
  swapType: "exact-input",
});

/** A provider outside the system: it notes each call and answers with `outcome` once `answer` resolves. */
function fakeProvider(
  id: string,
  calls: string[],
  outcome: QuoteOutcome,
  answer: () => Promise<void> = () => Promise.resolve(),
): OifAggregatorClient {
  return {
    provider: devnetProvider("http://127.0.0.1:9", { id }),
    async quote(request: OifQuoteRequest) {
      calls.push(`${id}/${request.supportedTypes[0]}`);
      await answer();
      return outcome;
    },
    submitOrder: () => Promise.reject(new Error("not in a quote round")),
    getOrder: () => Promise.reject(new Error("not in a quote round")),
    ready: () => Promise.resolve(undefined),
    close: () => Promise.resolve(),
  };
}

const noQuotes: QuoteOutcome = {
  kind: "no-quotes",
  httpStatus: 400,
  error: "AGGREGATION_ERROR",
  message: "",
};
const refused: QuoteOutcome = { kind: "refused", httpStatus: 400, error: undefined, message: "no" };

function depsOf(providers: OifAggregatorClient[], pace: ProviderPace | undefined): OifProvidersDeps {
  return {
    providers,
    metrics: createQuoteMetrics(new Registry()),
    logger: pino({ level: "silent" }),
    clock: systemClock,
    ...(pace ? { pace } : {}),
  };
}

describe("provider pace: which provider a round asks first", () => {
  test("the slowest provider lately, once every provider of the round has answered and they differ", () => {
    const rows: [string, [string, number][], string[], string | undefined][] = [
      ["none heard from yet", [], ["a", "b"], undefined],
      ["one not heard from yet", [["a", 10]], ["a", "b"], undefined],
      [
        "all alike",
        [
          ["a", 10],
          ["b", 10],
        ],
        ["a", "b"],
        undefined,
      ],
      [
        "the slower second",
        [
          ["a", 10],
          ["b", 25],
        ],
        ["a", "b"],
        "b",
      ],
      [
        "the slower first",
        [
          ["a", 25],
          ["b", 10],
        ],
        ["a", "b"],
        "a",
      ],
      [
        "two slowest alike: the first configured",
        [
          ["a", 25],
          ["b", 25],
          ["c", 10],
        ],
        ["a", "b", "c"],
        "a",
      ],
      ["one provider alone", [["a", 10]], ["a"], undefined],
    ];
    for (const [name, answered, providerIds, expected] of rows) {
      const pace = createProviderPace();
      for (const [providerId, ms] of answered) pace.answered(providerId, ms);
      assert.equal(slowestProvider(pace, providerIds), expected, name);
    }
  });

  test("a provider's pace moves an eighth of the way to each new answer time", () => {
    const pace = createProviderPace();
    assert.equal(pace.of("a"), undefined);
    pace.answered("a", 80);
    assert.equal(pace.of("a"), 80);
    pace.answered("a", 160);
    assert.equal(pace.of("a"), 90);
  });

  test("a round learns each provider's answer time", async () => {
    const pace = createProviderPace();
    const calls: string[] = [];
    const slow = fakeProvider(
      "slow",
      calls,
      refused,
      () => new Promise((resolve) => setTimeout(resolve, 30)),
    );
    await askOifProviders(
      depsOf([fakeProvider("fast", calls, noQuotes), slow], pace),
      route,
      {},
      new AbortController().signal,
    );
    assert.ok(pace.of("slow")! >= 29, `the slow provider took its 30 ms timer (${pace.of("slow")} ms)`);
    assert.ok(pace.of("fast")! < pace.of("slow")!);
  });

  test("the slowest provider's calls are made first and the others' a loop turn later; answers stay in configured order", async () => {
    const pace = createProviderPace();
    pace.answered("fast", 10);
    pace.answered("slow", 25);
    const calls: string[] = [];
    const providers = [fakeProvider("fast", calls, noQuotes), fakeProvider("slow", calls, refused)];
    const asked = askOifProviders(depsOf(providers, pace), route, {}, new AbortController().signal);
    assert.deepEqual(calls, ["slow/oif-3009-v0", "slow/oif-escrow-v0"], "only the slowest is asked at once");
    const answers = await asked;
    assert.deepEqual(calls, [
      "slow/oif-3009-v0",
      "slow/oif-escrow-v0",
      "fast/oif-3009-v0",
      "fast/oif-escrow-v0",
    ]);
    assert.deepEqual(
      answers.map((answer) => answer.kind),
      ["no-quotes", "no-quotes", "refused", "refused"],
    );
  });

  test("while another round's calls are out, a round asks in configured order at once; alone again, slowest first", async () => {
    const pace = createProviderPace();
    pace.answered("fast", 10);
    pace.answered("slow", 25);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const heldCalls: string[] = [];
    const other = askOifProviders(
      depsOf([fakeProvider("held", heldCalls, noQuotes, () => held)], pace),
      route,
      {},
      new AbortController().signal,
    );
    const calls: string[] = [];
    const providers = [fakeProvider("fast", calls, noQuotes), fakeProvider("slow", calls, refused)];
    const beside = askOifProviders(depsOf(providers, pace), route, {}, new AbortController().signal);
    assert.deepEqual(calls, [
      "fast/oif-3009-v0",
      "fast/oif-escrow-v0",
      "slow/oif-3009-v0",
      "slow/oif-escrow-v0",
    ]);
    await beside;
    release();
    await other;
    calls.length = 0;
    const alone = askOifProviders(depsOf(providers, pace), route, {}, new AbortController().signal);
    assert.deepEqual(calls, ["slow/oif-3009-v0", "slow/oif-escrow-v0"]);
    await alone;
  });

  test("a round that fails still stops counting as asking", async () => {
    const pace = createProviderPace();
    const failing: OifAggregatorClient = {
      ...fakeProvider("failing", [], noQuotes),
      quote: () => Promise.reject(new Error("broken client")),
    };
    await assert.rejects(askOifProviders(depsOf([failing], pace), route, {}, new AbortController().signal));
    const { others, done } = pace.asking();
    done();
    assert.equal(others, 0);
  });

  test("without a pace, or before every provider has answered, providers are asked in configured order at once", async () => {
    for (const pace of [undefined, createProviderPace()]) {
      const calls: string[] = [];
      const providers = [fakeProvider("fast", calls, noQuotes), fakeProvider("slow", calls, refused)];
      const asked = askOifProviders(depsOf(providers, pace), route, {}, new AbortController().signal);
      assert.deepEqual(calls, [
        "fast/oif-3009-v0",
        "fast/oif-escrow-v0",
        "slow/oif-3009-v0",
        "slow/oif-escrow-v0",
      ]);
      await asked;
    }
  });
});
