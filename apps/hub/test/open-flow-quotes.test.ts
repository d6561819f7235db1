import assert from "node:assert/strict";
import { after, before, beforeEach, describe, test } from "node:test";
import { bridgeAbi } from "@hub/chain";
import {
  type Catalog,
  type CatalogChain,
  preparedQuoteSchema,
  quotePreviewSchema,
  quoteWinnerSchema,
  signableHash,
} from "@hub/contract";
import { type Hex, encodeFunctionData, erc20Abi, getAddress, isAddress, keccak256, toHex } from "viem";
import { type OpenFlowTemplate, openFlowTemplateFingerprint } from "../src/quotes/open-flow-template.js";
import { devnetExternalProvider, parseProvidersConfig } from "../src/upstream/providers-config.js";
import { assertRefusal } from "./hub-fixture.js";
import {
  type ExternalStandIn,
  type StandInAnswer,
  startExternalStandIn,
} from "./open-flow-quotes-stand-in.js";
import { type QuoteHub, dataOf, disposeQuoteDatabases, startQuoteHub } from "./quote-hub.js";
import { readQuoteRows } from "./store/quote-rows.js";

// biome-ignore lint/suspicious/noExplicitAny: the tests build and doctor upstream JSON.
type Json = Record<string, any>;

const USER = "0x1111111111111111111111111111111111111111";
const RECIPIENT = "0x2222222222222222222222222222222222222222";
const OTHER = "0x3333333333333333333333333333333333333333";

function chain(chainId: number, bridge: string, usdc: string, token: string): CatalogChain {
  return {
    chainDomain: `eip155:${chainId}`,
    chainId,
    name: `Chain ${chainId}`,
    native: { symbol: "ETH", decimals: 18 },
    nativeKey: `eip155:${chainId}/slip44:60`,
    bridge,
    inputSettlers: { escrow: "0x00000000000000000000000000000000000000e1" },
    outputSettler: "0x00000000000000000000000000000000000000e2",
    inputOracle: "0x00000000000000000000000000000000000000e3",
    permit2: "0x000000000022d473030f116ddee9f6b43ac78ba3",
    assets: [
      {
        key: `eip155:${chainId}/erc20:${usdc}`,
        symbol: "USDC",
        decimals: 6,
        address: usdc,
        authorizations: ["permit2"],
      },
      {
        key: `eip155:${chainId}/erc20:${token}`,
        symbol: "TKN",
        decimals: 18,
        address: token,
        authorizations: ["permit2"],
      },
    ],
  };
}

const chainA: CatalogChain = {
  ...chain(
    31337,
    // Letters enough that a checksum is mixed case.
    "0xb1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1",
    "0x00000000000000000000000000000000000000a1",
    "0x00000000000000000000000000000000000000a2",
  ),
  // The native coin is a proxy-lane source (oif-wrap-native; TKN stands in for the wrapped coin).
  userProxy: "0x00000000000000000000000000000000000000d1",
  wrappedKey: "eip155:31337/erc20:0x00000000000000000000000000000000000000a2",
};
const chainB = chain(
  31338,
  "0x00000000000000000000000000000000000000b2",
  "0x00000000000000000000000000000000000000c1",
  "0x00000000000000000000000000000000000000c2",
);
/** A chain whose catalog entry names no bridge: nothing bridged to it could be seen released. */
const { bridge: _noBridge, ...chainC } = chain(
  31339,
  "0x00000000000000000000000000000000000000b3",
  "0x00000000000000000000000000000000000000f1",
  "0x00000000000000000000000000000000000000f2",
);
const catalog: Catalog = { families: { evm: [chainA, chainB, chainC], solana: [] } };
const usdcA = chainA.assets[0]!;
const tknA = chainA.assets[1]!;
const usdcB = chainB.assets[0]!;

function chainOfKey(key: string): CatalogChain {
  return catalog.families.evm.find((entry) => key.startsWith(`${entry.chainDomain}/`))!;
}

let counter = 0;

/** What a well-behaved external aggregator answers (the devnet's shape): a bridge transfer at 10 bps. */
function bridgeAnswer(request: Json, lifetimeMs = 30_000): Json {
  const source = chainOfKey(request.sourceAsset);
  const destination = chainOfKey(request.destinationAsset);
  const token = getAddress(request.sourceAsset.split(":").at(-1));
  // Checksummed, as the devnet's aggregator sends them.
  const bridge = getAddress(source.bridge!);
  const amountIn = BigInt(request.amount);
  counter += 1;
  const quoteId = `xq_${counter}`;
  const depositRef = keccak256(toHex(`stand-in:${quoteId}`));
  return {
    quoteId,
    provider: "stand-in-bridge",
    kind: "bridge",
    executionClass: "BRIDGE",
    sourceAsset: request.sourceAsset,
    destinationAsset: request.destinationAsset,
    amountIn: amountIn.toString(),
    amountOut: ((amountIn * 999n) / 1000n).toString(),
    recipient: request.recipient,
    ...(request.sourceAccount ? { sourceAccount: request.sourceAccount } : {}),
    expiresAt: new Date(Date.now() + lifetimeMs).toISOString(),
    depositRef,
    executionTx: {
      approvals: [{ chainId: source.chainDomain, token, spender: bridge, amount: amountIn.toString() }],
      steps: [
        {
          chainId: source.chainDomain,
          to: bridge,
          data: encodeFunctionData({
            abi: bridgeAbi,
            functionName: "deposit",
            args: [token, amountIn, BigInt(destination.chainId), request.recipient, depositRef],
          }),
          value: "0",
          description: `Deposit ${amountIn} into the bridge for ${destination.chainDomain}`,
        },
      ],
    },
  };
}

/** A same-chain answer without transactions (solver-swap or transfer). */
function sameChainAnswer(request: Json, kind: "solver-swap" | "transfer"): Json {
  const { executionTx: _none, depositRef: _ref, ...rest } = bridgeAnswer(request);
  return { ...rest, kind, executionClass: kind === "transfer" ? "TRANSFER" : "INFINITY_SOLVER" };
}

const ok = (body: unknown): StandInAnswer => ({ status: 200, body });

function depositData(
  args: Partial<{ token: string; amount: bigint; chainId: bigint; recipient: string }>,
): Hex {
  return encodeFunctionData({
    abi: bridgeAbi,
    functionName: "deposit",
    args: [
      (args.token ?? usdcA.address!) as Hex,
      args.amount ?? 1_000_000n,
      args.chainId ?? 31338n,
      (args.recipient ?? RECIPIENT) as Hex,
      keccak256(toHex("ref")),
    ],
  });
}

function crossChain(extra: Json = {}): Json {
  return {
    sourceAsset: usdcA.key,
    destinationAsset: usdcB.key,
    amount: "1000000",
    recipient: RECIPIENT,
    sourceAccount: USER,
    ...extra,
  };
}

describe("open-flow quotes from an external aggregator (stand-in)", () => {
  let standIn: ExternalStandIn;
  let second: ExternalStandIn;
  let hub: QuoteHub;
  let pair: QuoteHub;

  before(async () => {
    standIn = await startExternalStandIn();
    second = await startExternalStandIn();
    hub = await startQuoteHub({
      catalog,
      providers: [{ id: "ext", kind: "external-aggregator", baseUrl: standIn.url, timeoutMs: 1000 }],
    });
    pair = await startQuoteHub({
      catalog,
      providers: [
        { id: "ext", kind: "external-aggregator", baseUrl: standIn.url },
        { id: "ext2", kind: "external-aggregator", baseUrl: second.url },
      ],
    });
  });

  beforeEach(() => {
    standIn.answer = (request) => ok(bridgeAnswer(request));
    second.answer = (request) => ok(bridgeAnswer(request));
    standIn.delayMs = 0;
    second.delayMs = 0;
  });

  after(async () => {
    await hub?.stop();
    await pair?.stop();
    await standIn?.close();
    await second?.close();
    await disposeQuoteDatabases();
  });

  async function storedTemplate(
    target: QuoteHub,
    quoteId: string,
  ): Promise<{ row: Json; template: OpenFlowTemplate }> {
    const rows = await readQuoteRows<Json>(target.db.sql, quoteId);
    assert.equal(rows.length, 1, "the winner is stored");
    const row = rows[0]!;
    const template = typeof row.template === "string" ? JSON.parse(row.template) : row.template;
    return { row, template };
  }

  test("a cross-chain winner takes the open-flow lane: executionTx as vetted, its hash, signIntent line by line", async () => {
    let upstream: Json = {};
    standIn.answer = (request) => {
      upstream = bridgeAnswer(request);
      return ok(upstream);
    };
    const winner = quoteWinnerSchema.parse(dataOf(await hub.post("/v1/quote", crossChain())));

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

    const { row, template } = await storedTemplate(hub, winner.quoteId);
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
    const winner = quoteWinnerSchema.parse(dataOf(await hub.post("/v1/quote", request)));
    assert.equal(winner.lane, "open-flow");
    assert.equal(winner.signIntent, undefined);
    assert.equal(winner.sourceAccount, undefined);
    assert.equal((winner.disclosure.signablePayload as Json).terms.sourceAccount, undefined);
    assert.equal(standIn.received.at(-1)!.sourceAccount, undefined);
    const { template } = await storedTemplate(hub, winner.quoteId);
    assert.equal(template.signIntent, undefined);
    assert.equal(template.sourceAccount, undefined);
  });

  test("expiresAt never passes the aggregator's own expiresAt", async () => {
    let upstream: Json = {};
    standIn.answer = (request) => {
      upstream = bridgeAnswer(request, 20_000);
      return ok(upstream);
    };
    const winner = quoteWinnerSchema.parse(dataOf(await hub.post("/v1/quote", crossChain())));
    assert.equal(winner.expiresAt, upstream.expiresAt);
  });

  const bridgeStep = (quote: Json) => quote.executionTx.steps[0];
  const approval = (quote: Json) => quote.executionTx.approvals[0];
  /** The deposit calldata with the 12 padding bytes of its recipient word set: viem decodes it anyway. */
  const dirtyRecipient = (data: string) => {
    const word = 2 + 8 + 64 * 3;
    return data.slice(0, word) + "ff".repeat(12) + data.slice(word + 24);
  };
  const vettingCases: { name: string; reason: string; detail?: string; doctor: (quote: Json) => void }[] = [
    {
      name: "a wrong amountIn",
      reason: "amount",
      doctor: (q) => {
        q.amountIn = "999999";
      },
    },
    {
      name: "a wrong recipient",
      reason: "recipient",
      doctor: (q) => {
        q.recipient = OTHER;
      },
    },
    {
      name: "another source asset",
      reason: "input",
      doctor: (q) => {
        q.sourceAsset = tknA.key;
      },
    },
    {
      name: "another destination asset",
      reason: "output",
      doctor: (q) => {
        q.destinationAsset = chainB.assets[1]!.key;
      },
    },
    {
      name: "a sourceAccount not asked for",
      reason: "user",
      doctor: (q) => {
        q.sourceAccount = OTHER;
      },
    },
    {
      name: "an integer chainId on the approval",
      reason: "chain-id",
      doctor: (q) => {
        approval(q).chainId = 31337;
      },
    },
    {
      name: "another chain's domain on the step",
      reason: "chain-id",
      doctor: (q) => {
        bridgeStep(q).chainId = "eip155:31338";
      },
    },
    {
      name: "a miscased chain domain",
      reason: "chain-id",
      doctor: (q) => {
        bridgeStep(q).chainId = "EIP155:31337";
      },
    },
    {
      name: "an approval to another spender",
      reason: "approval",
      doctor: (q) => {
        approval(q).spender = OTHER;
      },
    },
    {
      name: "an approval of more than the amount",
      reason: "approval",
      doctor: (q) => {
        approval(q).amount = "2000000";
      },
    },
    { name: "two approvals", reason: "approval", doctor: (q) => q.executionTx.approvals.push(approval(q)) },
    {
      name: "calldata that is not a deposit",
      reason: "deposit",
      doctor: (q) => {
        bridgeStep(q).data = encodeFunctionData({
          abi: erc20Abi,
          functionName: "transfer",
          args: [OTHER, 1_000_000n],
        });
      },
    },
    {
      name: "a step to another contract",
      reason: "deposit",
      doctor: (q) => {
        bridgeStep(q).to = OTHER;
      },
    },
    {
      name: "a deposit for another recipient",
      reason: "deposit",
      doctor: (q) => {
        bridgeStep(q).data = depositData({ recipient: OTHER });
      },
    },
    {
      name: "a deposit to another chain",
      reason: "deposit",
      doctor: (q) => {
        bridgeStep(q).data = depositData({ chainId: 1n });
      },
    },
    {
      name: "a deposit of less",
      reason: "deposit",
      doctor: (q) => {
        bridgeStep(q).data = depositData({ amount: 1n });
      },
    },
    {
      name: "a deposit of another token",
      reason: "deposit",
      doctor: (q) => {
        bridgeStep(q).data = depositData({ token: tknA.address! });
      },
    },
    {
      name: "a step with value",
      reason: "deposit",
      doctor: (q) => {
        bridgeStep(q).value = "1";
      },
    },
    {
      name: "a depositRef the calldata does not carry",
      reason: "deposit",
      doctor: (q) => {
        q.depositRef = keccak256(toHex("x"));
      },
    },
    {
      name: "no executionTx on a bridge answer",
      reason: "deposit",
      doctor: (q) => {
        delete q.executionTx;
      },
    },
    {
      name: "an unknown kind",
      reason: "kind",
      doctor: (q) => {
        q.kind = "teleport";
      },
    },
    {
      name: "a solver-swap answer across chains",
      reason: "kind",
      doctor: (q) => {
        q.kind = "solver-swap";
      },
    },
    {
      name: "an execution class that is not the kind's",
      reason: "kind",
      doctor: (q) => {
        q.executionClass = "INFINITY_SOLVER";
      },
    },
    {
      name: "too little validity left",
      reason: "expired",
      doctor: (q) => {
        q.expiresAt = new Date(Date.now() + 2000).toISOString();
      },
    },
    {
      name: "an open-flow answer with 10 s left, under openFlowMinValidityMs (two transactions to mine)",
      reason: "expired",
      detail: "under 15000 ms",
      doctor: (q) => {
        q.expiresAt = new Date(Date.now() + 10_000).toISOString();
      },
    },
    {
      name: "a bridge answer promising more than it takes in (a bridge cannot create value)",
      reason: "amount",
      detail: "exceeds amountIn",
      doctor: (q) => {
        q.amountOut = "1000001";
      },
    },
    {
      name: "deposit calldata with trailing bytes",
      reason: "deposit",
      detail: "canonical encoding",
      doctor: (q) => {
        bridgeStep(q).data += "00".repeat(32);
      },
    },
    {
      name: "a deposit recipient with dirty high bytes (the contract would revert)",
      reason: "deposit",
      detail: "canonical encoding",
      doctor: (q) => {
        bridgeStep(q).data = dirtyRecipient(bridgeStep(q).data);
      },
    },
    {
      name: "a NUL in an extra field (PostgreSQL's jsonb cannot store it)",
      reason: "malformed",
      detail: "answer.note",
      doctor: (q) => {
        q.note = "a\u0000b";
      },
    },
    {
      name: "an unpaired surrogate in the step description",
      reason: "malformed",
      detail: "answer.executionTx.steps.0.description",
      doctor: (q) => {
        bridgeStep(q).description = "Deposit \ud800";
      },
    },
    {
      name: "a NUL in a key",
      reason: "malformed",
      detail: "(a key)",
      doctor: (q) => {
        q["x\u0000"] = 1;
      },
    },
    {
      name: "no quoteId",
      reason: "malformed",
      doctor: (q) => {
        delete q.quoteId;
      },
    },
    {
      name: "uppercase calldata",
      reason: "malformed",
      doctor: (q) => {
        bridgeStep(q).data = bridgeStep(q).data.toUpperCase().replace("0X", "0x");
      },
    },
  ];

  for (const { name, reason, detail, doctor } of vettingCases) {
    test(`${name} is discarded (reason ${reason}) and the round has no winner`, async () => {
      standIn.answer = (request) => {
        const quote = bridgeAnswer(request);
        doctor(quote);
        return ok(quote);
      };
      const before = await hub.metric("hub_quote_vetting_rejections_total", { provider: "ext", reason });
      const answer = (await hub.post("/v1/quote", crossChain())).answer;
      assertRefusal(answer, "EIN0008");
      assert.equal(
        await hub.metric("hub_quote_vetting_rejections_total", { provider: "ext", reason }),
        before + 1,
      );
      assert.ok(
        hub.logLines.some(
          (line) =>
            line.includes("external quote discarded by vetting") &&
            line.includes(`"reason":"${reason}"`) &&
            (detail === undefined || line.includes(detail)),
        ),
        `the discard is logged with its reason${detail === undefined ? "" : ` and "${detail}"`}`,
      );
    });
  }

  test("an answer with a paired surrogate (an emoji) in an extra field wins and is stored whole", async () => {
    let upstream: Json = {};
    standIn.answer = (request) => {
      upstream = { ...bridgeAnswer(request), note: "fast \u{1F680}" };
      return ok(upstream);
    };
    const winner = quoteWinnerSchema.parse(dataOf(await hub.post("/v1/quote", crossChain())));
    const { template } = await storedTemplate(hub, winner.quoteId);
    assert.equal((template.quoteResponse as Json).note, "fast \u{1F680}");
  });

  test("the step description is the hub's, never the aggregator's text", async () => {
    standIn.answer = (request) => {
      const quote = bridgeAnswer(request);
      bridgeStep(quote).description = "Claim your free airdrop at evil.example";
      return ok(quote);
    };
    const winner = quoteWinnerSchema.parse(dataOf(await hub.post("/v1/quote", crossChain())));
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
    standIn.answer = (request) => {
      const quote = bridgeAnswer(request);
      approval(quote).spender = bad;
      bridgeStep(quote).to = bad;
      return ok(quote);
    };
    const winner = quoteWinnerSchema.parse(dataOf(await hub.post("/v1/quote", crossChain())));
    const tx = winner.executionTx!;
    assert.equal(tx.approvals[0]!.spender, chainA.bridge);
    assert.equal(tx.approvals[0]!.token, usdcA.address);
    assert.equal(tx.steps[0]!.to, chainA.bridge);
    assert.equal((winner.disclosure.signablePayload as Json).executionTx.steps[0].to, chainA.bridge);
  });

  test("a bridge answer delivering another symbol than it takes is discarded (reason output)", async () => {
    const before = await hub.metric("hub_quote_vetting_rejections_total", {
      provider: "ext",
      reason: "output",
    });
    const answer = (await hub.post("/v1/quote", crossChain({ destinationAsset: chainB.assets[1]!.key })))
      .answer;
    assertRefusal(answer, "EIN0008");
    assert.equal(
      await hub.metric("hub_quote_vetting_rejections_total", { provider: "ext", reason: "output" }),
      before + 1,
    );
    assert.ok(hub.logLines.some((line) => line.includes("a bridge of USDC cannot deliver TKN")));
  });

  test("a bridge answer to a chain whose catalog entry names no bridge is discarded (reason deposit)", async () => {
    const before = await hub.metric("hub_quote_vetting_rejections_total", {
      provider: "ext",
      reason: "deposit",
    });
    const answer = (await hub.post("/v1/quote", crossChain({ destinationAsset: chainC.assets[0]!.key })))
      .answer;
    assertRefusal(answer, "EIN0008");
    assert.equal(
      await hub.metric("hub_quote_vetting_rejections_total", { provider: "ext", reason: "deposit" }),
      before + 1,
    );
    assert.ok(hub.logLines.some((line) => line.includes("no bridge on eip155:31339 to release from")));
  });

  test("a solver-swap answer above the input at 1:1 (rescaled by decimals) is discarded; at 1:1 it wins", async () => {
    const swap = crossChain({ destinationAsset: tknA.key });
    standIn.answer = (request) =>
      ok({ ...sameChainAnswer(request, "solver-swap"), amountOut: "1000000000000000001" });
    const before = await hub.metric("hub_quote_vetting_rejections_total", {
      provider: "ext",
      reason: "amount",
    });
    assertRefusal((await hub.post("/v1/quote", swap)).answer, "EIN0008");
    assert.equal(
      await hub.metric("hub_quote_vetting_rejections_total", { provider: "ext", reason: "amount" }),
      before + 1,
    );
    standIn.answer = (request) =>
      ok({ ...sameChainAnswer(request, "solver-swap"), amountOut: "1000000000000000000" });
    const winner = quoteWinnerSchema.parse(dataOf(await hub.post("/v1/quote", swap)));
    assert.equal(winner.output.amount, "1000000000000000000");
  });

  test("a solver-swap answer with 10 s left wins: only the open flow needs openFlowMinValidityMs", async () => {
    standIn.answer = (request) => {
      const quote = sameChainAnswer(request, "solver-swap");
      return ok({ ...quote, expiresAt: new Date(Date.now() + 10_000).toISOString() });
    };
    const winner = quoteWinnerSchema.parse(
      dataOf(await hub.post("/v1/quote", crossChain({ destinationAsset: tknA.key }))),
    );
    assert.equal(winner.lane, "solver-swap");
  });

  test("a discarded answer loses to a vetted one of another aggregator", async () => {
    standIn.answer = (request) => ok({ ...bridgeAnswer(request), recipient: OTHER, amountOut: "999999" });
    const winner = quoteWinnerSchema.parse(dataOf(await pair.post("/v1/quote", crossChain())));
    assert.equal(winner.provider, "ext2.stand-in-bridge");
  });

  test("the better output wins among external aggregators, and preview lists both best first", async () => {
    second.answer = (request) => ok({ ...bridgeAnswer(request), amountOut: "999500" });
    const winner = quoteWinnerSchema.parse(dataOf(await pair.post("/v1/quote", crossChain())));
    assert.equal(winner.provider, "ext2.stand-in-bridge");
    assert.equal(winner.output.amount, "999500");
    const preview = quotePreviewSchema.parse(dataOf(await pair.post("/v1/quote/preview", crossChain())));
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
    standIn.answer = (request) =>
      ok({
        ...sameChainAnswer(request, "solver-swap"),
        expiresAt: new Date(Date.now() + 6000).toISOString(),
        amountOut: "999900",
      });
    second.answer = (request) => ok(sameChainAnswer(request, "solver-swap"));
    second.delayMs = 1500;
    const before = await pair.metric("hub_quote_vetting_rejections_total", {
      provider: "ext",
      reason: "expired",
    });
    const winner = quoteWinnerSchema.parse(
      dataOf(await pair.post("/v1/quote", crossChain({ destinationAsset: tknA.key }))),
    );
    assert.equal(winner.provider, "ext2.stand-in-bridge", "the better offer had under 5 s left at the end");
    assert.equal(
      await pair.metric("hub_quote_vetting_rejections_total", { provider: "ext", reason: "expired" }),
      before + 1,
    );
  });

  test("an open-flow answer that falls under openFlowMinValidityMs while another aggregator is still answering is dropped at the round's end", async () => {
    // 16 s left on arrival passes the open flow's 15 s; 1.5 s later, when the slower aggregator has
    // answered, it no longer does (the round's 5 s would still have let it through).
    standIn.answer = (request) =>
      ok({ ...bridgeAnswer(request), expiresAt: new Date(Date.now() + 16_000).toISOString() });
    second.answer = (request) => ok({ ...bridgeAnswer(request), amountOut: "998000" });
    second.delayMs = 1500;
    const before = await pair.metric("hub_quote_vetting_rejections_total", {
      provider: "ext",
      reason: "expired",
    });
    const winner = quoteWinnerSchema.parse(dataOf(await pair.post("/v1/quote", crossChain())));
    assert.equal(winner.lane, "open-flow");
    assert.equal(winner.provider, "ext2.stand-in-bridge", "the better offer had under 15 s left at the end");
    assert.equal(
      await pair.metric("hub_quote_vetting_rejections_total", { provider: "ext", reason: "expired" }),
      before + 1,
    );
  });

  test("prepare with an external offer stores the winner under the preparationId; a replay returns it unchanged", async () => {
    const body = { ...crossChain(), preparationId: "prep-open-flow-1", provider: "ext.stand-in-bridge" };
    const first = preparedQuoteSchema.parse(dataOf(await pair.post("/v1/quote/prepare", body)));
    assert.equal(first.lane, "open-flow");
    assert.equal(first.provider, "ext.stand-in-bridge");
    assert.ok(first.signIntent?.includes(first.quoteId));
    const replay = preparedQuoteSchema.parse(dataOf(await pair.post("/v1/quote/prepare", body)));
    assert.deepEqual(replay, first);
    const other = await pair.post("/v1/quote/prepare", {
      ...body,
      preparationId: "prep-open-flow-2",
      provider: "ext.someone-else",
    });
    assertRefusal(other.answer, "EIN0008");
  });

  test("a same-chain solver-swap winner: lane solver-swap, INFINITY_SOLVER, neither signPayload nor executionTx", async () => {
    standIn.answer = (request) => ok(sameChainAnswer(request, "solver-swap"));
    const winner = quoteWinnerSchema.parse(
      dataOf(await hub.post("/v1/quote", crossChain({ destinationAsset: tknA.key }))),
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
    const { template } = await storedTemplate(hub, winner.quoteId);
    assert.equal(template.lane, "solver-swap");
    assert.equal(template.deposit, undefined);
    assert.equal(template.fingerprint, openFlowTemplateFingerprint(template));
  });

  test("a same-token same-chain transfer winner: lane transfer, no executionTx and nothing to sign", async () => {
    standIn.answer = (request) => ok(sameChainAnswer(request, "transfer"));
    const winner = quoteWinnerSchema.parse(
      dataOf(await hub.post("/v1/quote", crossChain({ destinationAsset: usdcA.key }))),
    );
    assert.equal(winner.lane, "transfer");
    assert.equal(winner.executionClass, "TRANSFER");
    assert.equal(winner.executionTx, undefined);
    assert.equal(winner.signPayload, undefined);
    assert.equal(winner.signIntent, undefined);
    assert.equal((winner.disclosure.signablePayload as Json).kind, "transfer");
  });

  test("a solver-swap answer that carries transactions, or one between one asset, is discarded", async () => {
    standIn.answer = (request) =>
      ok({ ...sameChainAnswer(request, "solver-swap"), executionTx: { approvals: [], steps: [] } });
    assertRefusal(
      (await hub.post("/v1/quote", crossChain({ destinationAsset: tknA.key }))).answer,
      "EIN0008",
    );
    standIn.answer = (request) => ok(sameChainAnswer(request, "solver-swap"));
    assertRefusal(
      (await hub.post("/v1/quote", crossChain({ destinationAsset: usdcA.key }))).answer,
      "EIN0008",
    );
  });

  test("exact-output requests are not asked of the external aggregator", async () => {
    const calls = standIn.received.length;
    const answer = (await hub.post("/v1/quote", crossChain({ swapType: "exact-output" }))).answer;
    assertRefusal(answer, "EIN0008");
    assert.equal(standIn.received.length, calls);
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
      standIn.answer = () => answer;
      const before = await hub.metric("hub_quote_provider_calls_total", { provider: "ext", outcome });
      const entry = assertRefusal((await hub.post("/v1/quote", crossChain())).answer, code);
      assert.deepEqual(entry.error_params, params);
      assert.equal(
        await hub.metric("hub_quote_provider_calls_total", { provider: "ext", outcome }),
        before + 1,
      );
    });
  }

  test("an aggregator slower than its timeout gives EIN0050", async () => {
    standIn.delayMs = 1500;
    const started = Date.now();
    assertRefusal((await hub.post("/v1/quote", crossChain())).answer, "EIN0050");
    assert.ok(Date.now() - started < 1400, "the round stops at the provider's 1 s timeout");
  });
});

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
