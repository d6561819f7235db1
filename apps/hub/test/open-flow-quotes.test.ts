import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { preparedQuoteSchema, quotePreviewSchema, quoteWinnerSchema, signableHash } from "@hub/contract";
import { getAddress, isAddress } from "viem";
import { openFlowTemplateFingerprint } from "../src/providers/external-aggregator/open-flow-template.js";
import { assertRefusal } from "./hub-fixture.js";
import {
  approval,
  bridgeAnswer,
  bridgeStep,
  chainA,
  chainB,
  chainC,
  crossChain,
  type Json,
  OTHER,
  ok,
  RECIPIENT,
  sameChainAnswer,
  storedTemplate,
  tknA,
  USER,
  usdcA,
  usdcB,
  useOpenFlowQuoteStack,
} from "./open-flow-quotes-fixture.js";
import type { StandInAnswer } from "./open-flow-quotes-stand-in.js";
import { dataOf } from "./quote-hub.js";

describe("open-flow quotes from an external aggregator (stand-in)", () => {
  const stack = useOpenFlowQuoteStack();

  test("a cross-chain winner takes the open-flow lane: executionTx as vetted, its hash, signIntent line by line", async () => {
    let upstream: Json = {};
    stack.standIn.answer = (request) => {
      upstream = bridgeAnswer(request);
      return ok(upstream);
    };
    const winner = quoteWinnerSchema.parse(dataOf(await stack.hub.post("/v1/quote", crossChain())));

    assert.equal(winner.lane, "open-flow");
    assert.equal(winner.executionClass, "BRIDGE");
    assert.equal(winner.provider, "ext.stand-in-bridge");
    assert.deepEqual(winner.input, { asset: usdcA.key, amount: "1000000" });
    assert.deepEqual(winner.output, { asset: usdcB.key, amount: "999000" });
    assert.equal(winner.recipient, RECIPIENT);
    assert.equal(winner.sourceAccount, USER);
    assert.equal(winner.signPayload, undefined);
    const sent = upstream.executionTx.steps[0];
    assert.deepEqual(
      winner.executionTx,
      {
        approvals: [
          { chainId: "eip155:31337", token: usdcA.address, spender: chainA.bridge, amount: "1000000" },
        ],
        steps: [
          {
            chainId: "eip155:31337",
            to: chainA.bridge,
            data: sent.data,
            value: "0",
            description: `Deposit 1 USDC into the bridge at ${chainA.bridge} for eip155:31338, recipient ${RECIPIENT}`,
          },
        ],
      },
      "the aggregator's transactions, addresses lowercase, described by the hub",
    );
    assert.notEqual(sent.to, chainA.bridge, "the aggregator sent the checksummed address");

    const payload = winner.disclosure.signablePayload as Json;
    assert.equal(payload.kind, "open-flow");
    assert.deepEqual(payload.executionTx, winner.executionTx);
    assert.deepEqual(payload.terms, {
      provider: "ext.stand-in-bridge",
      input: winner.input,
      output: winner.output,
      swapType: "exact-input",
      recipient: RECIPIENT,
      sourceAccount: USER,
      expiresAt: winner.expiresAt,
    });
    assert.equal(winner.disclosure.signableHash, signableHash(payload));

    assert.equal(
      winner.signIntent,
      [
        "Register open-flow order with the intent hub",
        `quoteId: ${winner.quoteId}`,
        `signableHash: ${winner.disclosure.signableHash}`,
        `sourceAccount: ${USER}`,
        `pay: 1 USDC (1000000 base units of ${usdcA.key})`,
        `receive: 0.999 USDC (999000 base units of ${usdcB.key})`,
        `recipient: ${RECIPIENT}`,
        `expiresAt: ${winner.expiresAt}`,
      ].join("\n"),
    );
    assert.ok(Date.parse(winner.expiresAt) <= Date.parse(upstream.expiresAt));

    const { row, template } = await storedTemplate(stack.hub, winner.quoteId);
    assert.equal(row.lane, "open-flow");
    assert.equal(row.provider_id, "ext");
    assert.equal(template.kind, "external");
    assert.equal(template.lane, "open-flow");
    assert.equal(template.upstreamQuoteId, upstream.quoteId);
    assert.deepEqual(template.quoteResponse, upstream);
    assert.equal(template.signableHash, winner.disclosure.signableHash);
    assert.equal(template.signIntent, winner.signIntent);
    assert.equal(template.sourceAccount, USER);
    assert.deepEqual(template.source, {
      chainDomain: "eip155:31337",
      chainId: 31337,
      asset: usdcA.key,
      amount: "1000000",
    });
    assert.deepEqual(template.destination, {
      chainDomain: "eip155:31338",
      chainId: 31338,
      asset: usdcB.key,
      amount: "999000",
    });
    assert.deepEqual(template.deposit, {
      bridge: chainA.bridge,
      token: usdcA.address,
      amount: "1000000",
      destinationChainId: 31338,
      recipient: RECIPIENT,
      ref: upstream.depositRef,
    });
    assert.equal(template.fingerprint, openFlowTemplateFingerprint(template));
  });

  test("without sourceAccount the winner has no signIntent and no sourceAccount, and none is sent upstream", async () => {
    const { sourceAccount: _omitted, ...request } = crossChain();
    const winner = quoteWinnerSchema.parse(dataOf(await stack.hub.post("/v1/quote", request)));
    assert.equal(winner.lane, "open-flow");
    assert.equal(winner.signIntent, undefined);
    assert.equal(winner.sourceAccount, undefined);
    assert.equal((winner.disclosure.signablePayload as Json).terms.sourceAccount, undefined);
    assert.equal(stack.standIn.received.at(-1)!.sourceAccount, undefined);
    const { template } = await storedTemplate(stack.hub, winner.quoteId);
    assert.equal(template.signIntent, undefined);
    assert.equal(template.sourceAccount, undefined);
  });

  test("expiresAt never passes the aggregator's own expiresAt", async () => {
    let upstream: Json = {};
    stack.standIn.answer = (request) => {
      upstream = bridgeAnswer(request, 20_000);
      return ok(upstream);
    };
    const winner = quoteWinnerSchema.parse(dataOf(await stack.hub.post("/v1/quote", crossChain())));
    assert.equal(winner.expiresAt, upstream.expiresAt);
  });

  test("an answer with a paired surrogate (an emoji) in an extra field wins and is stored whole", async () => {
    let upstream: Json = {};
    stack.standIn.answer = (request) => {
      upstream = { ...bridgeAnswer(request), note: "fast \u{1F680}" };
      return ok(upstream);
    };
    const winner = quoteWinnerSchema.parse(dataOf(await stack.hub.post("/v1/quote", crossChain())));
    const { template } = await storedTemplate(stack.hub, winner.quoteId);
    assert.equal((template.quoteResponse as Json).note, "fast \u{1F680}");
  });

  test("the step description is the hub's, never the aggregator's text", async () => {
    stack.standIn.answer = (request) => {
      const quote = bridgeAnswer(request);
      bridgeStep(quote).description = "Claim your free airdrop at evil.example";
      return ok(quote);
    };
    const winner = quoteWinnerSchema.parse(dataOf(await stack.hub.post("/v1/quote", crossChain())));
    assert.equal(
      winner.executionTx!.steps[0]!.description,
      `Deposit 1 USDC into the bridge at ${chainA.bridge} for eip155:31338, recipient ${RECIPIENT}`,
    );
  });

  test("addresses are disclosed lowercase even when the aggregator sends an invalid mixed-case checksum", async () => {
    /** The checksum with every letter's case flipped: mixed case, and never a valid checksum. */
    const miscased = (address: string) =>
      `0x${[...getAddress(address).slice(2)].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join("")}`;
    const bad = miscased(chainA.bridge!);
    assert.equal(isAddress(bad, { strict: true }), false, "a checksum a wallet refuses");
    stack.standIn.answer = (request) => {
      const quote = bridgeAnswer(request);
      approval(quote).spender = bad;
      bridgeStep(quote).to = bad;
      return ok(quote);
    };
    const winner = quoteWinnerSchema.parse(dataOf(await stack.hub.post("/v1/quote", crossChain())));
    const tx = winner.executionTx!;
    assert.equal(tx.approvals[0]!.spender, chainA.bridge);
    assert.equal(tx.approvals[0]!.token, usdcA.address);
    assert.equal(tx.steps[0]!.to, chainA.bridge);
    assert.equal((winner.disclosure.signablePayload as Json).executionTx.steps[0].to, chainA.bridge);
  });

  test("a bridge answer delivering another symbol than it takes is discarded (reason output)", async () => {
    const before = await stack.hub.metric("hub_quote_vetting_rejections_total", {
      provider: "ext",
      reason: "output",
    });
    const answer = (
      await stack.hub.post("/v1/quote", crossChain({ destinationAsset: chainB.assets[1]!.key }))
    ).answer;
    assertRefusal(answer, "EIN0008");
    assert.equal(
      await stack.hub.metric("hub_quote_vetting_rejections_total", { provider: "ext", reason: "output" }),
      before + 1,
    );
    assert.ok(stack.hub.logLines.some((line) => line.includes("a bridge of USDC cannot deliver TKN")));
  });

  test("a bridge answer to a chain whose catalog entry names no bridge is discarded (reason deposit)", async () => {
    const before = await stack.hub.metric("hub_quote_vetting_rejections_total", {
      provider: "ext",
      reason: "deposit",
    });
    const answer = (
      await stack.hub.post("/v1/quote", crossChain({ destinationAsset: chainC.assets[0]!.key }))
    ).answer;
    assertRefusal(answer, "EIN0008");
    assert.equal(
      await stack.hub.metric("hub_quote_vetting_rejections_total", { provider: "ext", reason: "deposit" }),
      before + 1,
    );
    assert.ok(stack.hub.logLines.some((line) => line.includes("no bridge on eip155:31339 to release from")));
  });

  test("a solver-swap answer above the input at 1:1 (rescaled by decimals) is discarded; at 1:1 it wins", async () => {
    const swap = crossChain({ destinationAsset: tknA.key });
    stack.standIn.answer = (request) =>
      ok({ ...sameChainAnswer(request, "solver-swap"), amountOut: "1000000000000000001" });
    const before = await stack.hub.metric("hub_quote_vetting_rejections_total", {
      provider: "ext",
      reason: "amount",
    });
    assertRefusal((await stack.hub.post("/v1/quote", swap)).answer, "EIN0008");
    assert.equal(
      await stack.hub.metric("hub_quote_vetting_rejections_total", { provider: "ext", reason: "amount" }),
      before + 1,
    );
    stack.standIn.answer = (request) =>
      ok({ ...sameChainAnswer(request, "solver-swap"), amountOut: "1000000000000000000" });
    const winner = quoteWinnerSchema.parse(dataOf(await stack.hub.post("/v1/quote", swap)));
    assert.equal(winner.output.amount, "1000000000000000000");
  });

  test("a solver-swap answer with 10 s left wins: only the open flow needs openFlowMinValidityMs", async () => {
    stack.standIn.answer = (request) => {
      const quote = sameChainAnswer(request, "solver-swap");
      return ok({ ...quote, expiresAt: new Date(Date.now() + 10_000).toISOString() });
    };
    const winner = quoteWinnerSchema.parse(
      dataOf(await stack.hub.post("/v1/quote", crossChain({ destinationAsset: tknA.key }))),
    );
    assert.equal(winner.lane, "solver-swap");
  });

  test("a discarded answer loses to a vetted one of another aggregator", async () => {
    stack.standIn.answer = (request) =>
      ok({ ...bridgeAnswer(request), recipient: OTHER, amountOut: "999999" });
    const winner = quoteWinnerSchema.parse(dataOf(await stack.pair.post("/v1/quote", crossChain())));
    assert.equal(winner.provider, "ext2.stand-in-bridge");
  });

  test("the better output wins among external aggregators, and preview lists both best first", async () => {
    stack.second.answer = (request) => ok({ ...bridgeAnswer(request), amountOut: "999500" });
    const winner = quoteWinnerSchema.parse(dataOf(await stack.pair.post("/v1/quote", crossChain())));
    assert.equal(winner.provider, "ext2.stand-in-bridge");
    assert.equal(winner.output.amount, "999500");
    const preview = quotePreviewSchema.parse(
      dataOf(await stack.pair.post("/v1/quote/preview", crossChain())),
    );
    assert.deepEqual(
      preview.offers.map((offer) => [offer.provider, offer.lane, offer.output.amount]),
      [
        ["ext2.stand-in-bridge", "open-flow", "999500"],
        ["ext.stand-in-bridge", "open-flow", "999000"],
      ],
    );
  });

  test("an answer that runs short of validity while another aggregator is still answering is dropped at the round's end", async () => {
    // Solver-swap answers: their least validity is the 5 s every lane has (the open flow's is 15 s).
    stack.standIn.answer = (request) =>
      ok({
        ...sameChainAnswer(request, "solver-swap"),
        expiresAt: new Date(Date.now() + 6000).toISOString(),
        amountOut: "999900",
      });
    stack.second.answer = (request) => ok(sameChainAnswer(request, "solver-swap"));
    stack.second.delayMs = 1500;
    const before = await stack.pair.metric("hub_quote_vetting_rejections_total", {
      provider: "ext",
      reason: "expired",
    });
    const winner = quoteWinnerSchema.parse(
      dataOf(await stack.pair.post("/v1/quote", crossChain({ destinationAsset: tknA.key }))),
    );
    assert.equal(winner.provider, "ext2.stand-in-bridge", "the better offer had under 5 s left at the end");
    assert.equal(
      await stack.pair.metric("hub_quote_vetting_rejections_total", { provider: "ext", reason: "expired" }),
      before + 1,
    );
  });

  test("an open-flow answer that falls under openFlowMinValidityMs while another aggregator is still answering is dropped at the round's end", async () => {
    // 16 s left on arrival passes the open flow's 15 s; 1.5 s later, when the slower aggregator has
    // answered, it no longer does (the round's 5 s would still have let it through).
    stack.standIn.answer = (request) =>
      ok({ ...bridgeAnswer(request), expiresAt: new Date(Date.now() + 16_000).toISOString() });
    stack.second.answer = (request) => ok({ ...bridgeAnswer(request), amountOut: "998000" });
    stack.second.delayMs = 1500;
    const before = await stack.pair.metric("hub_quote_vetting_rejections_total", {
      provider: "ext",
      reason: "expired",
    });
    const winner = quoteWinnerSchema.parse(dataOf(await stack.pair.post("/v1/quote", crossChain())));
    assert.equal(winner.lane, "open-flow");
    assert.equal(winner.provider, "ext2.stand-in-bridge", "the better offer had under 15 s left at the end");
    assert.equal(
      await stack.pair.metric("hub_quote_vetting_rejections_total", { provider: "ext", reason: "expired" }),
      before + 1,
    );
  });

  test("prepare with an external offer stores the winner under the preparationId; a replay returns it unchanged", async () => {
    const body = { ...crossChain(), preparationId: "prep-open-flow-1", provider: "ext.stand-in-bridge" };
    const first = preparedQuoteSchema.parse(dataOf(await stack.pair.post("/v1/quote/prepare", body)));
    assert.equal(first.lane, "open-flow");
    assert.equal(first.provider, "ext.stand-in-bridge");
    assert.ok(first.signIntent?.includes(first.quoteId));
    const replay = preparedQuoteSchema.parse(dataOf(await stack.pair.post("/v1/quote/prepare", body)));
    assert.deepEqual(replay, first);
    const other = await stack.pair.post("/v1/quote/prepare", {
      ...body,
      preparationId: "prep-open-flow-2",
      provider: "ext.someone-else",
    });
    assertRefusal(other.answer, "EIN0008");
  });

  test("a same-chain solver-swap winner: lane solver-swap, INFINITY_SOLVER, neither signPayload nor executionTx", async () => {
    stack.standIn.answer = (request) => ok(sameChainAnswer(request, "solver-swap"));
    const winner = quoteWinnerSchema.parse(
      dataOf(await stack.hub.post("/v1/quote", crossChain({ destinationAsset: tknA.key }))),
    );
    assert.equal(winner.lane, "solver-swap");
    assert.equal(winner.executionClass, "INFINITY_SOLVER");
    assert.equal(winner.signPayload, undefined);
    assert.equal(winner.executionTx, undefined);
    const payload = winner.disclosure.signablePayload as Json;
    assert.equal(payload.kind, "solver-swap");
    assert.equal(payload.executionTx, undefined);
    assert.equal(winner.disclosure.signableHash, signableHash(payload));
    assert.match(winner.signIntent ?? "", /^Register solver-swap order with the intent hub\n/);
    const { template } = await storedTemplate(stack.hub, winner.quoteId);
    assert.equal(template.lane, "solver-swap");
    assert.equal(template.deposit, undefined);
    assert.equal(template.fingerprint, openFlowTemplateFingerprint(template));
  });

  test("a same-token same-chain transfer winner: lane transfer, no executionTx and nothing to sign", async () => {
    stack.standIn.answer = (request) => ok(sameChainAnswer(request, "transfer"));
    const winner = quoteWinnerSchema.parse(
      dataOf(await stack.hub.post("/v1/quote", crossChain({ destinationAsset: usdcA.key }))),
    );
    assert.equal(winner.lane, "transfer");
    assert.equal(winner.executionClass, "TRANSFER");
    assert.equal(winner.executionTx, undefined);
    assert.equal(winner.signPayload, undefined);
    assert.equal(winner.signIntent, undefined);
    assert.equal((winner.disclosure.signablePayload as Json).kind, "transfer");
  });

  test("a solver-swap answer that carries transactions, or one between one asset, is discarded", async () => {
    stack.standIn.answer = (request) =>
      ok({ ...sameChainAnswer(request, "solver-swap"), executionTx: { approvals: [], steps: [] } });
    assertRefusal(
      (await stack.hub.post("/v1/quote", crossChain({ destinationAsset: tknA.key }))).answer,
      "EIN0008",
    );
    stack.standIn.answer = (request) => ok(sameChainAnswer(request, "solver-swap"));
    assertRefusal(
      (await stack.hub.post("/v1/quote", crossChain({ destinationAsset: usdcA.key }))).answer,
      "EIN0008",
    );
  });

  test("exact-output requests are not asked of the external aggregator", async () => {
    const calls = stack.standIn.received.length;
    const answer = (await stack.hub.post("/v1/quote", crossChain({ swapType: "exact-output" }))).answer;
    assertRefusal(answer, "EIN0008");
    assert.equal(stack.standIn.received.length, calls);
  });

  const refusals: {
    name: string;
    answer: StandInAnswer;
    code: "EIN0008" | "EIN0050" | "EIN0081";
    params?: string[];
    outcome: string;
  }[] = [
    {
      name: "400 NO_ROUTE",
      answer: { status: 400, body: { error: "NO_ROUTE", message: "no" } },
      code: "EIN0008",
      outcome: "no-quotes",
    },
    {
      name: "400 INSUFFICIENT_LIQUIDITY",
      answer: { status: 400, body: { error: "INSUFFICIENT_LIQUIDITY", message: "dry" } },
      code: "EIN0008",
      outcome: "no-quotes",
    },
    {
      name: "400 VALIDATION_ERROR",
      answer: { status: 400, body: { error: "VALIDATION_ERROR", message: "bad" } },
      code: "EIN0008",
      outcome: "refused",
    },
    {
      name: "429",
      answer: { status: 429, body: { error: "RATE_LIMITED" }, headers: { "retry-after": "2" } },
      code: "EIN0081",
      outcome: "rate-limited",
    },
    {
      name: "401",
      answer: { status: 401, body: { error: "UNAUTHORIZED" } },
      code: "EIN0050",
      params: ["upstreamAuth"],
      outcome: "auth-refused",
    },
    {
      name: "500",
      answer: { status: 500, body: { error: "INTERNAL" } },
      code: "EIN0050",
      outcome: "unavailable",
    },
    {
      name: "a body that is not JSON",
      answer: { status: 200, body: "<html>" },
      code: "EIN0050",
      outcome: "unavailable",
    },
  ];

  for (const { name, answer, code, params, outcome } of refusals) {
    test(`an aggregator answering ${name} gives ${code} as the OIF source would`, async () => {
      stack.standIn.answer = () => answer;
      const before = await stack.hub.metric("hub_quote_provider_calls_total", { provider: "ext", outcome });
      const entry = assertRefusal((await stack.hub.post("/v1/quote", crossChain())).answer, code);
      assert.deepEqual(entry.error_params, params);
      assert.equal(
        await stack.hub.metric("hub_quote_provider_calls_total", { provider: "ext", outcome }),
        before + 1,
      );
    });
  }

  test("an aggregator slower than its timeout gives EIN0050", async () => {
    stack.standIn.delayMs = 1500;
    const started = Date.now();
    assertRefusal((await stack.hub.post("/v1/quote", crossChain())).answer, "EIN0050");
    assert.ok(Date.now() - started < 1400, "the round stops at the provider's 1 s timeout");
  });
});
