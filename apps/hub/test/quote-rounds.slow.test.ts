import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { addressToBytes32, orderIdentifier, standardOrderFromJson } from "@hub/chain";
import {
  type CatalogChain,
  type PreparedQuote,
  preparedQuoteSchema,
  type QuoteWinner,
  quotePreviewSchema,
  quoteWinnerSchema,
  signableHash,
  successEnvelope,
} from "@hub/contract";
import { getAddress, type Hex, hashTypedData } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { QuoteTemplate } from "../src/quotes/quote-template.js";
import { createOifAggregatorClient, devnetProvider } from "../src/providers/index.js";
import { type ProviderStandIn, startProviderStandIn } from "./fixtures/provider-stand-in.js";
import { assertRefusal } from "./hub-fixture.js";
import { dataOf, disposeQuoteDatabases, type QuoteHub, startQuoteHub } from "./quote-hub.js";
import { countQuotes, listPreparedQuoteIds, readQuoteRows } from "./store/quote-rows.js";
import { type HubTestDevnet, startHubTestDevnet } from "./upstream-devnet.js";

// biome-ignore lint/suspicious/noExplicitAny: the tests read and doctor deep upstream JSON.
type Json = Record<string, any>;

// These rounds check the reference aggregator's answers (its checksum, a stand-in doctoring /api/v1/quotes);
// the specification's dialect is held by oif-spec-conformance.
const referenceDialect = { dialect: "oif-aggregator" } as const;

describe("quote rounds against the devnet through the hub", () => {
  let devnet: HubTestDevnet;
  let main: QuoteHub;
  let guarded: QuoteHub;
  let tampered: ProviderStandIn;
  let origin: CatalogChain;
  let destination: CatalogChain;
  let user: { address: `0x${string}`; privateKey: `0x${string}` };
  const key = (chain: CatalogChain, symbol: string) => chain.assets.find((a) => a.symbol === symbol)!.key;

  const reference = () => devnetProvider(devnet.url, referenceDialect);

  before(async () => {
    devnet = await startHubTestDevnet();
    [origin, destination] = devnet.catalog.families.evm as [CatalogChain, CatalogChain];
    user = devnet.manifest.users[0]!;
    tampered = await startProviderStandIn(`${devnet.url}/aggregator`);
    main = await startQuoteHub({ catalog: devnet.catalog, providers: [reference()] });
    guarded = await startQuoteHub({
      catalog: devnet.catalog,
      providers: [
        reference(),
        { id: "tampered", ...referenceDialect, kind: "oif-aggregator", baseUrl: tampered.url },
      ],
    });
  });

  after(async () => {
    await main?.stop();
    await guarded?.stop();
    await tampered?.close();
    await devnet?.stop();
    await disposeQuoteDatabases();
  });

  function body(symbol = "USDC", extra: Json = {}): Json {
    return {
      sourceAsset: key(origin, symbol),
      destinationAsset: key(destination, symbol),
      amount: "1000000",
      recipient: user.address,
      sourceAccount: user.address,
      ...extra,
    };
  }

  async function templateOf(hub: QuoteHub, quoteId: string): Promise<{ row: Json; template: QuoteTemplate }> {
    const rows = await readQuoteRows<Json>(hub.db.sql, quoteId);
    assert.equal(rows.length, 1, "the winner is stored");
    const row = rows[0]!;
    const template = typeof row.template === "string" ? JSON.parse(row.template) : row.template;
    return { row, template };
  }

  test("a round picks the better of the two solvers and discloses it per the contract", async () => {
    const winner = quoteWinnerSchema.parse(dataOf(await main.post("/v1/quote", body())));
    assert.equal(winner.provider, "devnet.alpha", "alpha (30 bps) beats beta (50 bps)");
    assert.equal(winner.output.amount, "997000");
    assert.deepEqual(winner.input, { asset: key(origin, "USDC"), amount: "1000000" });
    assert.equal(winner.lane, "aggregator-gasless", "equal terms: the lane that needs no Permit2 approval");
    assert.equal(winner.disclosure.signablePayload.kind, winner.lane);
    assert.equal(winner.disclosure.signableHash, signableHash(winner.disclosure.signablePayload));
    assert.equal(winner.executionClass, "OIF_ESCROW");
    assert.match(winner.quoteId, /^q_r1_/);
    assert.match(winner.quoteRequestId, /^qr_r1_/);
    const lifetimeMs = Date.parse(winner.expiresAt) - Date.now();
    assert.ok(lifetimeMs > 20_000 && lifetimeMs <= 30_000, `expiresAt about 30 s ahead (${lifetimeMs} ms)`);
    const { row, template } = await templateOf(main, winner.quoteId);
    assert.equal(row.org_id, "org_quotes");
    assert.equal(row.subject, "user-1");
    assert.equal(row.provider_id, "devnet");
    assert.equal(row.preparation_id, null);
    assert.match((template.quoteResponse as Json).integrityChecksum, /^[0-9a-f]{64}$/);
  });

  test("the Permit2 lane's payload names Permit2 on the source chain and the catalog's escrow as spender", async () => {
    const winner = quoteWinnerSchema.parse(dataOf(await main.post("/v1/quote", body("TKN"))));
    assert.equal(winner.lane, "oif-escrow-gasless");
    assert.equal(winner.onchainOrderId, undefined, "not disclosed on the Permit2 lane");
    const payload = winner.signPayload as Json;
    assert.deepEqual(payload.domain, {
      name: "Permit2",
      chainId: origin.chainId,
      verifyingContract: origin.permit2,
    });
    assert.equal(payload.message.spender, origin.inputSettlers.escrow);
    assert.equal(payload.message.witness.inputOracle, origin.inputOracle);
    const output = payload.message.witness.outputs[0];
    assert.equal(output.recipient, addressToBytes32(user.address));
    assert.equal(output.settler, addressToBytes32(destination.outputSettler as Hex));
    const { template } = await templateOf(main, winner.quoteId);
    const received = (template.quoteResponse as Json).order.payload;
    assert.equal(
      hashTypedData(payload as never),
      hashTypedData(received),
      "the disclosed payload signs what the upstream sent",
    );
  });

  test("the EIP-3009 nonce is the order id the hub recomputed, and a signature over the disclosed payload is accepted upstream", async () => {
    const winner = quoteWinnerSchema.parse(
      dataOf(await main.post("/v1/quote", body("USDC", { amount: "2000000" }))),
    );
    assert.equal(winner.lane, "aggregator-gasless");
    const wrapped = winner.signPayload as { chainId: number; payload: Json };
    assert.equal(wrapped.chainId, origin.chainId);
    const { template, row } = await templateOf(main, winner.quoteId);
    const order = template.standardOrder;
    const recomputed = orderIdentifier(
      standardOrderFromJson(order),
      origin.chainId,
      origin.inputSettlers.escrow as Hex,
    );
    assert.equal(wrapped.payload.message.nonce, recomputed);
    assert.equal(winner.onchainOrderId, recomputed);
    assert.equal(row.onchain_order_id, recomputed);
    assert.equal(template.onchainOrderIdSource, "verified");
    assert.equal(wrapped.payload.message.to, origin.inputSettlers.escrow);
    assert.equal(wrapped.payload.message.value, "2000000");

    const { EIP712Domain: _domainType, ...types } = wrapped.payload.types;
    const signature = await privateKeyToAccount(user.privateKey).signTypedData({
      domain: wrapped.payload.domain,
      types,
      primaryType: wrapped.payload.primaryType,
      message: wrapped.payload.message,
    } as never);
    const client = createOifAggregatorClient(reference());
    try {
      const outcome = await client.submitOrder({ quoteResponse: template.quoteResponse, signature });
      assert.equal(outcome.kind, "accepted", JSON.stringify(outcome));
      if (outcome.kind === "accepted") assert.equal(`0x${outcome.orderId}`, recomputed);
    } finally {
      await client.close();
    }
  });

  test("preview lists every vetted offer with its provider id, best first, and stores nothing", async () => {
    const before = await countQuotes(main.db.sql);
    const preview = quotePreviewSchema.parse(dataOf(await main.post("/v1/quote/preview", body())));
    const offers = preview.offers.map((o) => `${o.provider} ${o.lane} ${o.output.amount}`);
    assert.deepEqual(offers, [
      "devnet.alpha aggregator-gasless 997000",
      "devnet.alpha oif-escrow-gasless 997000",
      "devnet.beta aggregator-gasless 995000",
      "devnet.beta oif-escrow-gasless 995000",
    ]);
    assert.equal(await countQuotes(main.db.sql), before);
  });

  test("prepare binds the chosen provider; a replay returns the same quote and expiry; another body is EIN0001 preparationId", async () => {
    const request = body("USDC", { preparationId: "attempt-1", provider: "devnet.beta" });
    const first = preparedQuoteSchema.parse(dataOf(await main.post("/v1/quote/prepare", request)));
    assert.equal(first.provider, "devnet.beta", "the chosen provider, though alpha is better");
    assert.equal(first.output.amount, "995000");
    assert.equal(first.preparationId, "attempt-1");
    const replay = preparedQuoteSchema.parse(dataOf(await main.post("/v1/quote/prepare", request)));
    assert.deepEqual(replay, first);
    const { row, template } = await templateOf(main, first.quoteId);
    assert.equal(row.preparation_id, "attempt-1");
    assert.equal(template.solverId, "beta");

    const changed = await main.post("/v1/quote/prepare", { ...request, amount: "1000001" });
    assertRefusal(changed.answer, "EIN0001", "preparationId");

    const otherSubject = preparedQuoteSchema.parse(
      dataOf(await main.post("/v1/quote/prepare", request, { subject: "user-2" })),
    );
    assert.notEqual(
      otherSubject.quoteId,
      first.quoteId,
      "a preparationId belongs to one organization and subject",
    );
  });

  test("two concurrent prepares under one preparationId store one quote and both answer it", async () => {
    const request = body("USDC", { preparationId: "race-1", provider: "devnet.alpha" });
    const [a, b] = await Promise.all([
      main.post("/v1/quote/prepare", request),
      main.post("/v1/quote/prepare", request),
    ]);
    const first = dataOf(a) as PreparedQuote;
    const second = dataOf(b) as PreparedQuote;
    assert.equal(first.quoteId, second.quoteId);
    assert.equal(first.expiresAt, second.expiresAt);
    const rows = await listPreparedQuoteIds(main.db.sql, "race-1");
    assert.equal(rows.length, 1);
  });

  test("a provider id that is not offered here is EIN0008", async () => {
    const answer = await main.post(
      "/v1/quote/prepare",
      body("USDC", { preparationId: "p-x", provider: "elsewhere.alpha" }),
    );
    assertRefusal(answer.answer, "EIN0008");
  });

  test("an unknown chain and a malformed EVM recipient are EIN0008 at resolution, naming the field", async () => {
    const cases: Array<[Json, string]> = [
      [
        body("USDC", { destinationAsset: "eip155:999/erc20:0x0000000000000000000000000000000000000001" }),
        "destinationAsset: eip155:999 is not a chain of the catalog",
      ],
      [body("USDC", { recipient: "0x1234" }), "recipient: not an EVM address"],
    ];
    for (const [request, reason] of cases) {
      const { answer, envelope } = await main.post("/v1/quote", request);
      assertRefusal(answer, "EIN0008");
      assert.match(String(envelope.message), new RegExp(reason));
    }
  });

  test("an undeclared token takes the swap-token lane: a hub that reads no chain cannot price the router, EIN0008", async () => {
    const unknownAsset = `${origin.chainDomain}/erc20:0x${"12".repeat(20)}`;
    const { answer, envelope } = await main.post("/v1/quote", body("USDC", { sourceAsset: unknownAsset }));
    assertRefusal(answer, "EIN0008");
    assert.match(String(envelope.message), /does not read chain \d+, so it cannot price its swap router/);
  });

  test("a native source takes the wrap-native lane: no solver bridges the wrapped coin into USDC, EIN0008", async () => {
    const { answer, envelope } = await main.post(
      "/v1/quote",
      body("USDC", { sourceAsset: origin.nativeKey }),
    );
    assertRefusal(answer, "EIN0008");
    assert.match(String(envelope.message), /no provider offered a quote/);
  });

  test("without sourceAccount the recipient is the paying account, and it is disclosed", async () => {
    const { sourceAccount: _omitted, ...request } = body("TKN");
    const winner = quoteWinnerSchema.parse(dataOf(await main.post("/v1/quote", request)));
    assert.equal(winner.sourceAccount, user.address.toLowerCase());
    assert.equal((winner.signPayload as Json).message.witness.user, user.address.toLowerCase());
  });

  const doctors: Record<string, { reason: string; symbol: string; doctor: (quote: Json) => void }> = {
    "a wrong spender": {
      reason: "spender",
      symbol: "TKN",
      doctor: (q) => {
        q.order.payload.message.spender = `0x${"66".repeat(20)}`;
      },
    },
    "a wrong Permit2 domain": {
      reason: "domain",
      symbol: "TKN",
      doctor: (q) => {
        q.order.payload.domain.verifyingContract = `0x${"77".repeat(20)}`;
      },
    },
    "a wrong input amount": {
      reason: "amount",
      symbol: "TKN",
      doctor: (q) => {
        q.order.payload.message.permitted[0].amount = "999999";
        q.preview.inputs[0].amount = "999999";
      },
    },
    "a fill deadline in the past": {
      reason: "expired",
      symbol: "TKN",
      doctor: (q) => {
        q.order.payload.message.deadline = String(Math.floor(Date.now() / 1000) - 60);
      },
    },
    "a wrong recipient": {
      reason: "recipient",
      symbol: "TKN",
      doctor: (q) => {
        q.order.payload.message.witness.outputs[0].recipient = addressToBytes32(`0x${"88".repeat(20)}`);
      },
    },
    "a spender whose letter case breaks its checksum": {
      reason: "typed-data-hash",
      symbol: "TKN",
      doctor: (q) => {
        q.order.payload.message.spender = `0x${q.order.payload.message.spender.slice(2).toUpperCase()}`;
      },
    },
    "an EIP-3009 nonce that is not the order id": {
      reason: "nonce",
      symbol: "USDC",
      doctor: (q) => {
        if (q.order.type === "oif-3009-v0") q.order.payload.message.nonce = `0x${"99".repeat(32)}`;
        else q.order.payload.message.spender = `0x${"66".repeat(20)}`;
      },
    },
  };

  for (const [name, { reason, symbol, doctor }] of Object.entries(doctors)) {
    test(`an answer with ${name} is discarded, logged and counted (reason ${reason}); an honest provider still wins`, async (t) => {
      t.after(() => {
        tampered.doctor = undefined;
      });
      tampered.doctor = (quote) => {
        doctor(quote);
        // Made to look better than the honest answer, so it would win if it were not discarded.
        const q = quote as Json;
        const bump = (value: string) => String(BigInt(value) + 1000n);
        if (q.order.type === "oif-escrow-v0") {
          const out = q.order.payload.message.witness.outputs[0];
          out.amount = bump(out.amount);
        } else {
          q.order.metadata.outputs[0].amount = bump(q.order.metadata.outputs[0].amount);
        }
        q.preview.outputs[0].amount = bump(q.preview.outputs[0].amount);
        return quote;
      };
      const counted = await guarded.metric("hub_quote_vetting_rejections_total", {
        provider: "tampered",
        reason,
      });
      const winner = quoteWinnerSchema.parse(dataOf(await guarded.post("/v1/quote", body(symbol))));
      assert.equal(winner.provider, "devnet.alpha");
      const now = await guarded.metric("hub_quote_vetting_rejections_total", {
        provider: "tampered",
        reason,
      });
      assert.ok(now >= counted + 2, `both solvers' tampered answers counted (${counted} → ${now})`);
      assert.ok(
        guarded.logLines.some(
          (line) => line.includes("discarded by vetting") && line.includes(`"reason":"${reason}"`),
        ),
        "logged with its reason",
      );
    });
  }

  test("an answer that spells a value another way (a checksummed spender, the domain's chainId as a string) hashes as the rebuilt typed data and can win", async (t) => {
    t.after(() => {
      tampered.doctor = undefined;
    });
    tampered.doctor = (quote) => {
      const q = quote as Json;
      if (q.order.type !== "oif-escrow-v0") return quote;
      const { domain, message } = q.order.payload;
      message.spender = getAddress(message.spender);
      domain.chainId = String(domain.chainId);
      const bump = (value: string) => String(BigInt(value) + 1000n);
      message.witness.outputs[0].amount = bump(message.witness.outputs[0].amount);
      q.preview.outputs[0].amount = bump(q.preview.outputs[0].amount);
      return quote;
    };
    const winner = quoteWinnerSchema.parse(dataOf(await guarded.post("/v1/quote", body("TKN"))));
    assert.match(winner.provider, /^tampered\./);
    const payload = winner.signPayload as Json;
    assert.equal(payload.message.spender, origin.inputSettlers.escrow.toLowerCase());
    assert.equal(payload.domain.chainId, origin.chainId);
  });

  test("the disclosed winner of a quote is what the quotes table holds", async () => {
    const posted = await main.post("/v1/quote", body());
    const winner = dataOf(posted) as QuoteWinner;
    const { row } = await templateOf(main, winner.quoteId);
    const stored = typeof row.winner === "string" ? JSON.parse(row.winner) : row.winner;
    assert.deepEqual(stored, winner);
    assert.equal(new Date(row.expires_at).toISOString(), winner.expiresAt);
    // The winner's text is written once for both; the answer is still the serialized envelope's bytes.
    const requestId = posted.answer.headers["x-request-id"]!;
    assert.equal(posted.answer.body.toString("utf8"), JSON.stringify(successEnvelope(winner, requestId)));
  });
});
