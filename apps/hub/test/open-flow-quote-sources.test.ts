import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { devnetExternalProvider, parseProvidersConfig } from "../src/providers/index.js";
import { assertRefusal } from "./hub-fixture.js";
import { bridgeAnswer, catalog, chainA, crossChain, type Json, ok } from "./open-flow-quotes-fixture.js";
import {
  type ExternalStandIn,
  type StandInAnswer,
  startExternalStandIn,
} from "./open-flow-quotes-stand-in.js";
import { disposeQuoteDatabases, type QuoteHub, startQuoteHub } from "./quote-hub.js";

describe("routes the external aggregators do not serve leave the OIF refusal standing", () => {
  let oif: ExternalStandIn;
  let external: ExternalStandIn;
  let hub: QuoteHub;

  before(async () => {
    // With no target the stand-in answers every POST: here it is the OIF aggregator, failing.
    oif = await startExternalStandIn();
    external = await startExternalStandIn();
    external.answer = (request) => ok(bridgeAnswer(request));
    hub = await startQuoteHub({
      catalog,
      providers: [
        { id: "oif", baseUrl: oif.url, timeoutMs: 1000 },
        { id: "ext", kind: "external-aggregator", baseUrl: external.url, timeoutMs: 1000 },
      ],
    });
  });

  after(async () => {
    await hub?.stop();
    await oif?.close();
    await external?.close();
    await disposeQuoteDatabases();
  });

  const unserved: { name: string; body: Json }[] = [
    { name: "an exact-output request", body: crossChain({ swapType: "exact-output" }) },
    {
      name: "a proxy-lane request (the native coin)",
      body: crossChain({ sourceAsset: chainA.nativeKey, amount: "1000000000000000" }),
    },
  ];
  const outages: { name: string; answer: StandInAnswer; code: "EIN0050" | "EIN0081" }[] = [
    { name: "503", answer: { status: 503, body: { error: "UNAVAILABLE" } }, code: "EIN0050" },
    {
      name: "429",
      answer: { status: 429, body: { error: "RATE_LIMITED" }, headers: { "retry-after": "1" } },
      code: "EIN0081",
    },
  ];

  for (const { name, body } of unserved) {
    for (const outage of outages) {
      test(`${name} with the OIF provider answering ${outage.name} gives ${outage.code}, not EIN0008`, async () => {
        oif.answer = () => outage.answer;
        const calls = external.received.length;
        const oifCalls = oif.received.length;
        assertRefusal((await hub.post("/v1/quote", body)).answer, outage.code);
        assert.ok(oif.received.length > oifCalls, "the OIF provider was asked");
        assert.equal(external.received.length, calls, "the external aggregator was not asked");
      });
    }
  }
});

describe("providers configuration by kind", () => {
  test("an entry without kind is an OIF aggregator, so existing configuration keeps working", () => {
    const [provider] = parseProvidersConfig([{ id: "a", baseUrl: "http://x:1/agg/" }]);
    assert.equal(provider!.kind, "oif-aggregator");
    assert.deepEqual(provider!.kind === "oif-aggregator" && provider!.products, [
      "oif-escrow-v0",
      "oif-3009-v0",
    ]);
  });

  test("an external aggregator takes id, baseUrl, enabled and the same timeouts, with the same defaults", () => {
    const [provider] = parseProvidersConfig([
      { id: "x", kind: "external-aggregator", baseUrl: "http://x:1/ext/" },
    ]);
    assert.deepEqual(provider, {
      id: "x",
      kind: "external-aggregator",
      baseUrl: "http://x:1/ext",
      headers: {},
      timeoutMs: 5000,
      connections: 16,
      enabled: true,
    });
  });

  test("the devnet's external aggregator is devnet-external at <devnetUrl>/external", () => {
    const provider = devnetExternalProvider("http://127.0.0.1:4000/");
    assert.equal(provider.id, "devnet-external");
    assert.equal(provider.kind, "external-aggregator");
    assert.equal(provider.baseUrl, "http://127.0.0.1:4000/external");
  });

  test("an unknown kind, a zero timeout and an id shared across kinds are refused", () => {
    assert.throws(
      () => parseProvidersConfig([{ id: "a", kind: "bridge", baseUrl: "http://x" }]),
      /providers\.0\.kind/,
    );
    assert.throws(
      () =>
        parseProvidersConfig([{ id: "a", kind: "external-aggregator", baseUrl: "http://x", timeoutMs: 0 }]),
      /providers\.0\.timeoutMs/,
    );
    assert.throws(
      () =>
        parseProvidersConfig([
          { id: "a", baseUrl: "http://x" },
          { id: "a", kind: "external-aggregator", baseUrl: "http://y" },
        ]),
      /provider ids must be unique/,
    );
  });
});
