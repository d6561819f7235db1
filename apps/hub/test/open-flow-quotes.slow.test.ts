import assert from "node:assert/strict";
import { after, before, beforeEach, describe, test } from "node:test";
import { bridgeAbi, decodeDepositedLogs } from "@hub/chain";
import {
  type CatalogChain,
  type QuoteWinner,
  quotePreviewSchema,
  quoteWinnerSchema,
  signableHash,
} from "@hub/contract";
import { type ChainClients, createChainClients } from "@hub/devnet-app";
import { decodeFunctionData, encodeFunctionData, erc20Abi, type Hex, verifyMessage } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { OpenFlowTemplate } from "../src/providers/external-aggregator/open-flow-template.js";
import { createQuoteStore } from "../src/store/quote-store.js";
import {
  createExternalAggregatorClient,
  devnetExternalProvider,
  devnetProvider,
} from "../src/providers/index.js";
import { assertRefusal } from "./hub-fixture.js";
import { type ExternalStandIn, startExternalStandIn } from "./open-flow-quotes-stand-in.js";
import { dataOf, disposeQuoteDatabases, type QuoteHub, startQuoteHub } from "./quote-hub.js";
import { type HubTestDevnet, startHubTestDevnet } from "./upstream-devnet.js";

// biome-ignore lint/suspicious/noExplicitAny: the tests read stored JSON rows and upstream answers.
type Json = Record<string, any>;

describe("open-flow quotes against the devnet's external aggregator", () => {
  let devnet: HubTestDevnet;
  let chains: ChainClients;
  let external: ExternalStandIn;
  /** Both devnet providers; the external one through a forwarding stand-in that counts and doctors. */
  let both: QuoteHub;
  /** The devnet's external aggregator alone, directly. */
  let alone: QuoteHub;
  let origin: CatalogChain;
  let destination: CatalogChain;
  let user: { address: Hex; privateKey: Hex };
  const key = (chain: CatalogChain, symbol: string) => chain.assets.find((a) => a.symbol === symbol)!.key;

  before(async () => {
    devnet = await startHubTestDevnet();
    chains = createChainClients(devnet.manifest);
    [origin, destination] = devnet.catalog.families.evm as [CatalogChain, CatalogChain];
    user = devnet.manifest.users[0]!;
    external = await startExternalStandIn(`${devnet.url}/external`);
    both = await startQuoteHub({
      catalog: devnet.catalog,
      providers: [devnetProvider(devnet.url), devnetExternalProvider(devnet.url, { baseUrl: external.url })],
    });
    alone = await startQuoteHub({ catalog: devnet.catalog, providers: [devnetExternalProvider(devnet.url)] });
  });

  beforeEach(() => {
    external.doctor = undefined;
  });

  after(async () => {
    await both?.stop();
    await alone?.stop();
    await external?.close();
    await devnet?.stop();
    await disposeQuoteDatabases();
  });

  function body(extra: Json = {}): Json {
    return {
      sourceAsset: key(origin, "USDC"),
      destinationAsset: key(destination, "USDC"),
      amount: "1000000",
      recipient: user.address,
      sourceAccount: user.address,
      ...extra,
    };
  }

  async function templateOf(hub: QuoteHub, quoteId: string): Promise<OpenFlowTemplate> {
    const quote = await createQuoteStore(hub.db.sql).get(quoteId);
    assert.ok(quote, "the winner is stored");
    return quote.template as unknown as OpenFlowTemplate;
  }

  async function send(to: string, data: Hex, value = 0n) {
    const client = chains.get(origin.chainId);
    const hash = await client.wallet(user).sendTransaction({ to: to as Hex, data, value });
    const receipt = await client.publicClient.waitForTransactionReceipt({ hash });
    assert.equal(receipt.status, "success");
    return receipt;
  }

  test("a declared token across chains wins on the open-flow lane over the OIF solvers (10 bps bridge fee against 30 bps)", async () => {
    const winner = quoteWinnerSchema.parse(dataOf(await both.post("/v1/quote", body())));
    assert.equal(winner.lane, "open-flow");
    assert.equal(winner.provider, "devnet-external.devnet-bridge");
    assert.equal(winner.executionClass, "BRIDGE");
    assert.deepEqual(winner.output, { asset: key(destination, "USDC"), amount: "999000" });
    assert.equal(winner.sourceAccount, user.address.toLowerCase());
    assert.equal(winner.signPayload, undefined);

    const { approvals, steps } = winner.executionTx!;
    assert.equal(approvals.length, 1);
    assert.equal(steps.length, 1);
    assert.equal(approvals[0]!.chainId, origin.chainDomain);
    assert.equal(steps[0]!.chainId, origin.chainDomain);
    assert.equal(approvals[0]!.spender.toLowerCase(), origin.bridge);
    assert.equal(approvals[0]!.token.toLowerCase(), origin.assets.find((a) => a.symbol === "USDC")!.address);
    assert.equal(approvals[0]!.amount, "1000000");
    assert.equal(steps[0]!.to.toLowerCase(), origin.bridge);
    assert.equal(steps[0]!.value, "0");
    // The devnet's aggregator sends checksummed addresses and its own description; the hub discloses
    // one canonical form (lowercase) and writes the description from the calldata.
    const sent = (await templateOf(both, winner.quoteId)).quoteResponse as Json;
    assert.notEqual(sent.executionTx.steps[0].to, origin.bridge, "the aggregator sent checksum case");
    assert.equal(approvals[0]!.spender, origin.bridge);
    assert.equal(steps[0]!.to, origin.bridge);
    assert.equal(
      steps[0]!.description,
      `Deposit 1 USDC into the bridge at ${origin.bridge} for ${destination.chainDomain}, recipient ${user.address.toLowerCase()}`,
    );
    const call = decodeFunctionData({ abi: bridgeAbi, data: steps[0]!.data as Hex });
    assert.equal(call.functionName, "deposit");
    const [token, amount, chainId, recipient, ref] = call.args as readonly [Hex, bigint, bigint, Hex, Hex];
    assert.equal(token.toLowerCase(), approvals[0]!.token.toLowerCase());
    assert.equal(amount, 1_000_000n);
    assert.equal(chainId, BigInt(destination.chainId));
    assert.equal(recipient.toLowerCase(), user.address.toLowerCase());

    const payload = winner.disclosure.signablePayload as Json;
    assert.equal(payload.kind, "open-flow");
    assert.deepEqual(payload.executionTx, winner.executionTx);
    assert.equal(winner.disclosure.signableHash, signableHash(payload));
    const lines = winner.signIntent!.split("\n");
    assert.deepEqual(lines.slice(1, 4), [
      `quoteId: ${winner.quoteId}`,
      `signableHash: ${winner.disclosure.signableHash}`,
      `sourceAccount: ${user.address.toLowerCase()}`,
    ]);
    const signature = await privateKeyToAccount(user.privateKey).signMessage({ message: winner.signIntent! });
    assert.ok(
      await verifyMessage({ address: user.address, message: winner.signIntent!, signature }),
      "personal_sign of signIntent verbatim recovers the source account",
    );

    const template = await templateOf(both, winner.quoteId);
    assert.equal(template.lane, "open-flow");
    assert.equal(template.providerId, "devnet-external");
    assert.equal(template.deposit!.ref, ref.toLowerCase());
    assert.equal(template.deposit!.bridge, origin.bridge);
    assert.ok(Date.parse(winner.expiresAt) <= Date.parse((template.quoteResponse as Json).expiresAt));

    // The wallet sends executionTx as disclosed: the approval, then the deposit the template names.
    const approve = approvals[0]!;
    await send(
      approve.token,
      encodeFunctionData({
        abi: erc20Abi,
        functionName: "approve",
        args: [approve.spender as Hex, BigInt(approve.amount)],
      }),
    );
    const receipt = await send(steps[0]!.to, steps[0]!.data as Hex, BigInt(steps[0]!.value));
    const [deposited] = decodeDepositedLogs(receipt.logs);
    assert.ok(deposited, "the step emits Deposited");
    assert.equal(deposited.address.toLowerCase(), template.deposit!.bridge);
    assert.equal(deposited.args.ref.toLowerCase(), template.deposit!.ref);
    assert.equal(deposited.args.recipient.toLowerCase(), template.deposit!.recipient);
    assert.equal(deposited.args.amount.toString(), template.deposit!.amount);
    assert.equal(Number(deposited.args.destinationChainId), template.deposit!.destinationChainId);
    assert.equal(deposited.args.depositor.toLowerCase(), user.address.toLowerCase());
  });

  test("the external client reads an issued quote back by its id, and an unknown id is not-found", async () => {
    const client = createExternalAggregatorClient(devnetExternalProvider(devnet.url));
    try {
      const winner = quoteWinnerSchema.parse(dataOf(await alone.post("/v1/quote", body())));
      const template = await templateOf(alone, winner.quoteId);
      const found = await client.getQuote(template.upstreamQuoteId);
      assert.equal(found.kind, "found");
      assert.deepEqual(found.kind === "found" && found.quote, template.quoteResponse);
      assert.deepEqual(await client.getQuote("xq_unknown"), { kind: "not-found" });
      const aborted = await client.quote(
        {
          sourceAsset: body().sourceAsset,
          destinationAsset: body().destinationAsset,
          amount: "1",
          recipient: user.address,
        },
        AbortSignal.abort(),
      );
      assert.equal(aborted.kind === "unavailable" && aborted.reason, "aborted");
    } finally {
      await client.close();
    }
  });

  test("without sourceAccount the open-flow winner carries no signIntent", async () => {
    const { sourceAccount: _omitted, ...request } = body();
    const winner = quoteWinnerSchema.parse(dataOf(await alone.post("/v1/quote", request)));
    assert.equal(winner.lane, "open-flow");
    assert.equal(winner.signIntent, undefined);
    assert.equal(winner.sourceAccount, undefined);
    assert.ok(winner.executionTx);
  });

  test("the OIF lanes win when they offer more: preview ranks the EIP-3009 lane first and the open flow after", async () => {
    external.doctor = (quote) => ({ ...quote, amountOut: "990000" });
    const winner = quoteWinnerSchema.parse(dataOf(await both.post("/v1/quote", body())));
    assert.equal(winner.lane, "aggregator-gasless");
    assert.equal(winner.provider, "devnet.alpha");
    const preview = quotePreviewSchema.parse(dataOf(await both.post("/v1/quote/preview", body())));
    const lanes = preview.offers.map((offer) => offer.lane);
    assert.equal(lanes[0], "aggregator-gasless");
    assert.equal(lanes.at(-1), "open-flow");
    assert.equal(preview.offers.at(-1)!.output.amount, "990000");
  });

  test("an answer that deposits elsewhere or for someone else is discarded, and the OIF winner stands", async () => {
    external.doctor = (quote) => {
      quote.executionTx.steps[0].to = origin.userProxy;
      return quote;
    };
    const elsewhere = quoteWinnerSchema.parse(dataOf(await both.post("/v1/quote", body())));
    assert.notEqual(elsewhere.lane, "open-flow");
    external.doctor = (quote) => ({ ...quote, recipient: devnet.manifest.users[1]!.address });
    const someoneElse = quoteWinnerSchema.parse(dataOf(await both.post("/v1/quote", body())));
    assert.notEqual(someoneElse.lane, "open-flow");
    assert.ok(
      (await both.metric("hub_quote_vetting_rejections_total", {
        provider: "devnet-external",
        reason: "deposit",
      })) >= 1,
    );
    assert.ok(
      (await both.metric("hub_quote_vetting_rejections_total", {
        provider: "devnet-external",
        reason: "recipient",
      })) >= 1,
    );
  });

  test("proxy-lane sources and exact-output requests stay with the OIF lanes; the external aggregator is not asked", async () => {
    const calls = external.received.length;
    const native = quoteWinnerSchema.parse(
      dataOf(
        await both.post(
          "/v1/quote",
          body({
            sourceAsset: origin.nativeKey,
            destinationAsset: key(destination, "WETH"),
            amount: "1000000000000000",
          }),
        ),
      ),
    );
    assert.equal(native.lane, "oif-wrap-native");
    const exactOutput = quoteWinnerSchema.parse(
      dataOf(await both.post("/v1/quote", body({ swapType: "exact-output" }))),
    );
    assert.notEqual(exactOutput.lane, "open-flow");
    assert.equal(external.received.length, calls);
  });

  test("the aggregator's refusals map to EIN0008: no route (not the counterpart token) and not enough liquidity", async () => {
    assertRefusal(
      (await alone.post("/v1/quote", body({ destinationAsset: key(destination, "TKN") }))).answer,
      "EIN0008",
    );
    assertRefusal(
      (await alone.post("/v1/quote", body({ amount: "1000000000000000000000000" }))).answer,
      "EIN0008",
    );
    assert.ok(
      (await alone.metric("hub_quote_provider_calls_total", {
        provider: "devnet-external",
        outcome: "no-quotes",
      })) >= 2,
    );
  });

  test("a same-chain swap of two declared tokens wins on the solver-swap lane: INFINITY_SOLVER, nothing to send", async () => {
    const winner: QuoteWinner = quoteWinnerSchema.parse(
      dataOf(await alone.post("/v1/quote", body({ destinationAsset: key(origin, "TKN") }))),
    );
    assert.equal(winner.lane, "solver-swap");
    assert.equal(winner.executionClass, "INFINITY_SOLVER");
    assert.equal(winner.executionTx, undefined);
    assert.equal(winner.signPayload, undefined);
    assert.equal((winner.disclosure.signablePayload as Json).kind, "solver-swap");
    assert.match(winner.signIntent ?? "", /^Register solver-swap order/);
    assert.equal((await templateOf(alone, winner.quoteId)).lane, "solver-swap");
  });

  test("a same-token same-chain request wins on the transfer lane: nothing to send or sign", async () => {
    const winner = quoteWinnerSchema.parse(
      dataOf(await alone.post("/v1/quote", body({ destinationAsset: key(origin, "USDC") }))),
    );
    assert.equal(winner.lane, "transfer");
    assert.equal(winner.executionClass, "TRANSFER");
    assert.equal(winner.executionTx, undefined);
    assert.equal(winner.signPayload, undefined);
    assert.equal(winner.signIntent, undefined);
    assert.equal((winner.disclosure.signablePayload as Json).kind, "transfer");
  });
});
