import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  decodeOpenLogs,
  orderIdentifier,
  type StandardOrder,
  standardOrderFromJson,
  swapRouterAbi,
  userProxyAbi,
} from "@hub/chain";
import {
  type Catalog,
  type CatalogChain,
  openForAckSchema,
  preparedQuoteSchema,
  type QuoteWinner,
  quotePreviewSchema,
  quoteWinnerSchema,
  signableHash,
} from "@hub/contract";
import { type ChainClients, createChainClients } from "@hub/devnet-app";
import { createTestDatabases, type TestDatabase } from "@hub/store";
import { decodeFunctionData, erc20Abi, type Hex, parseEther } from "viem";
import type { HubApp } from "../src/index.js";
import type { QuoteTemplate } from "../src/quotes/quote-template.js";
import { devnetProvider } from "../src/providers/index.js";
import { assertRefusal, call, createTestHubApp, envelopeOf } from "./hub-fixture.js";
import { readQuoteRows } from "./store/quote-rows.js";
import { type HubTestDevnet, startHubTestDevnet } from "./upstream-devnet.js";

// biome-ignore lint/suspicious/noExplicitAny: the tests read stored JSON rows.
type Json = Record<string, any>;

const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
const PROXY_HOLD_MS = 20 * 60 * 1000;

interface ProxyHub {
  hub: HubApp;
  db: TestDatabase;
  post(path: string, body: unknown, subject?: string): Promise<ReturnType<typeof envelopeOf>>;
  postAnswer(path: string, body: unknown, subject?: string): ReturnType<typeof call>;
  stop(): Promise<void>;
}

/** A hub on a real database quoting through the devnet's aggregator, reading the given chains at quote time. */
async function startProxyHub(
  devnet: HubTestDevnet,
  options: { catalog?: Catalog; chains?: { chainId: number; rpcUrl: string }[] } = {},
): Promise<ProxyHub> {
  const db = await databases.open(process.env.DATABASE_URL ? "postgres" : "pglite");
  const hub = createTestHubApp({
    config: { organizationBucket: { ratePerSecond: 10_000, burst: 10_000 } },
    catalog: options.catalog ?? devnet.catalog,
    sql: db.sql,
    providers: [devnetProvider(devnet.url)],
    chains:
      options.chains ??
      devnet.manifest.chains.map((chain) => ({ chainId: chain.chainId, rpcUrl: chain.rpcUrl })),
  });
  const postAnswer = (path: string, body: unknown, subject = "proxy-user") =>
    call(hub, "POST", path, {
      headers: { "x-service-org": "org_proxy", "x-service-subject": subject },
      json: body,
    });
  return {
    hub,
    db,
    postAnswer,
    async post(path, body, subject) {
      return envelopeOf(await postAnswer(path, body, subject));
    },
    async stop() {
      await hub.close();
      await db.dispose();
    },
  };
}

/** Addresses lowercased, so a decoded order compares with the stored one. */
function normalized(order: StandardOrder): StandardOrder {
  return {
    ...order,
    user: order.user.toLowerCase() as Hex,
    inputOracle: order.inputOracle.toLowerCase() as Hex,
  };
}

describe("proxy-lane quotes against the devnet through the hub", () => {
  let devnet: HubTestDevnet;
  let main: ProxyHub;
  let chains: ChainClients;
  let origin: CatalogChain;
  let destination: CatalogChain;
  let undeclaredKey: string;
  let undeclaredToken: Hex;
  const wrappedKey = (chain: CatalogChain) => chain.wrappedKey!;
  const assetKey = (chain: CatalogChain, symbol: string) =>
    chain.assets.find((a) => a.symbol === symbol)!.key;

  before(async () => {
    devnet = await startHubTestDevnet();
    [origin, destination] = devnet.catalog.families.evm as [CatalogChain, CatalogChain];
    undeclaredToken = devnet.manifest.chains[0]!.contracts.undeclaredToken.toLowerCase() as Hex;
    undeclaredKey = `${origin.chainDomain}/erc20:${undeclaredToken}`;
    chains = createChainClients(devnet.manifest);
    main = await startProxyHub(devnet);
  });

  after(async () => {
    await main?.stop();
    await devnet?.stop();
    await databases.dispose();
  });

  function user(index: number) {
    const account = devnet.manifest.users[index]!;
    return { ...account, address: account.address.toLowerCase() as Hex };
  }

  async function quote(hub: ProxyHub, body: Json, subject?: string): Promise<QuoteWinner> {
    const envelope = await hub.post("/v1/quote", body, subject);
    assert.equal(envelope.success, true, JSON.stringify(envelope));
    return quoteWinnerSchema.parse(envelope.data);
  }

  async function storedQuote(
    hub: ProxyHub,
    quoteId: string,
  ): Promise<{ row: Json; template: QuoteTemplate }> {
    const rows = await readQuoteRows<Json>(hub.db.sql, quoteId);
    assert.equal(rows.length, 1, "the winner is stored");
    const row = rows[0]!;
    return { row, template: typeof row.template === "string" ? JSON.parse(row.template) : row.template };
  }

  async function assertHeldTwentyMinutes(hub: ProxyHub, winner: QuoteWinner) {
    const { row } = await storedQuote(hub, winner.quoteId);
    const issuedAt = new Date(row.issued_at).getTime();
    assert.equal(new Date(row.registrable_until).getTime() - issuedAt, PROXY_HOLD_MS, "registrable 20 min");
    const lifetime = new Date(row.expires_at).getTime() - issuedAt;
    assert.ok(lifetime > 0 && lifetime <= 30_000, `expiresAt about 30 s after issue, was ${lifetime} ms`);
    assert.equal(new Date(row.expires_at).toISOString(), winner.expiresAt);
  }

  function assertDisclosureHash(winner: QuoteWinner) {
    const payload = winner.disclosure.signablePayload as Json;
    assert.equal(payload.kind, winner.lane);
    assert.deepEqual(payload.executionTx, winner.executionTx);
    assert.equal(payload.terms.onchainOrderId, winner.onchainOrderId);
    assert.deepEqual(payload.terms.input, winner.input);
    assert.deepEqual(payload.terms.output, winner.output);
    assert.equal(winner.disclosure.signableHash, signableHash(payload));
  }

  async function send(
    account: { address: Hex; privateKey: Hex },
    step: { to: string; data: string; value: string },
  ) {
    const client = chains.get(origin.chainId);
    const hash = await client.wallet(account).sendTransaction({
      to: step.to as Hex,
      data: step.data as Hex,
      value: BigInt(step.value),
    });
    const receipt = await client.publicClient.waitForTransactionReceipt({ hash });
    assert.equal(receipt.status, "success");
    return receipt;
  }

  async function openFor(hub: ProxyHub, winner: QuoteWinner, subject: string, extra: Json = {}) {
    return hub.postAnswer(
      "/v1/order/openfor",
      { quoteRequestId: winner.quoteRequestId, quoteId: winner.quoteId, ...extra },
      subject,
    );
  }

  async function balance(token: Hex, account: Hex): Promise<bigint> {
    return chains.get(origin.chainId).publicClient.readContract({
      address: token,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [account],
    });
  }

  test("a native-coin source takes oif-wrap-native: one wrapAndOpen step to the user proxy whose value is the amount, no approval; the wallet's transaction opens the disclosed onchainOrderId and POST /order/openfor without signature acks it", async () => {
    const payer = user(4);
    const amount = parseEther("0.25");
    const winner = await quote(
      main,
      {
        sourceAsset: origin.nativeKey,
        destinationAsset: wrappedKey(destination),
        amount: amount.toString(),
        recipient: payer.address,
        sourceAccount: payer.address,
      },
      "wrap-user",
    );
    assert.equal(winner.lane, "oif-wrap-native");
    assert.deepEqual(winner.input, { asset: origin.nativeKey, amount: amount.toString() });
    assert.equal(winner.signPayload, undefined);
    assert.equal(winner.swapInput, undefined);
    assert.equal(winner.signIntent, undefined);

    const { template } = await storedQuote(main, winner.quoteId);
    const order = standardOrderFromJson(template.standardOrder);
    assert.equal(order.user, payer.address, "the paying account is the order's user");
    assert.deepEqual(order.inputs, [
      [BigInt(origin.assets.find((a) => a.key === origin.wrappedKey)!.address!), amount],
    ]);

    const tx = winner.executionTx!;
    assert.deepEqual(tx.approvals, []);
    assert.equal(tx.steps.length, 1);
    const [step] = tx.steps;
    assert.equal(step!.chainId, origin.chainId, "an integer chain id");
    assert.equal(typeof step!.chainId, "number");
    assert.equal(step!.to, origin.userProxy);
    assert.equal(step!.value, amount.toString());
    assert.match(
      step!.description,
      /^wrapAndOpen: wraps 0\.25 ETH into WETH and opens escrow order 0x[0-9a-f]{64}/,
    );
    const call = decodeFunctionData({ abi: userProxyAbi, data: step!.data as Hex });
    assert.equal(call.functionName, "wrapAndOpen");
    assert.deepEqual(normalized(call.args[0] as StandardOrder), order);

    const expectedId = orderIdentifier(order, origin.chainId, origin.inputSettlers.escrow as Hex);
    assert.equal(winner.onchainOrderId, expectedId);
    assert.equal(template.onchainOrderId, expectedId);
    assert.equal(template.onchainOrderIdSource, "verified");
    assert.equal(template.signatureScheme, "none");
    assertDisclosureHash(winner);
    await assertHeldTwentyMinutes(main, winner);

    const receipt = await send(payer, step!);
    const [open] = decodeOpenLogs(receipt.logs);
    assert.equal(open?.args.orderId, winner.onchainOrderId, "the escrow's Open reports the disclosed id");

    const answer = await openFor(main, winner, "wrap-user");
    const envelope = envelopeOf(answer);
    assert.equal(envelope.success, true, answer.body.toString());
    const ack = openForAckSchema.parse(envelope.data);
    assert.equal(ack.orderId, winner.onchainOrderId);
    assert.equal(ack.state, "created");
  });

  test("an undeclared token takes oif-swap-token: one approval of amountMax to the user proxy, then one swapAndOpenV2 step with value 0; the escrow takes quoteExactInput of the amount in the declared token, the user pays amountMax (at most the amount) and the Open reports the disclosed id", async () => {
    const payer = user(5);
    // Not a whole number of USDC: the swap rounds down and amountMax is less than the amount.
    const amount = parseEther("100") + 123n;
    const router = { address: origin.swapRouter as Hex, abi: swapRouterAbi } as const;
    const usdc = origin.assets.find((a) => a.symbol === "USDC")!;
    const publicClient = chains.get(origin.chainId).publicClient;
    const escrowAmount = await publicClient.readContract({
      ...router,
      functionName: "quoteExactInput",
      args: [undeclaredToken, usdc.address as Hex, amount],
    });
    const amountMax = await publicClient.readContract({
      ...router,
      functionName: "quoteExactOutput",
      args: [undeclaredToken, usdc.address as Hex, escrowAmount],
    });
    assert.ok(amountMax < amount);

    const winner = await quote(
      main,
      {
        sourceAsset: undeclaredKey,
        destinationAsset: assetKey(destination, "USDC"),
        amount: amount.toString(),
        recipient: payer.address,
        sourceAccount: payer.address,
      },
      "swap-user",
    );
    assert.equal(winner.lane, "oif-swap-token");
    assert.deepEqual(winner.swapInput, { amountIn: amount.toString(), amountMax: amountMax.toString() });
    assert.deepEqual(winner.input, { asset: undeclaredKey, amount: amountMax.toString() });
    assert.equal(winner.signPayload, undefined);

    const { template } = await storedQuote(main, winner.quoteId);
    const order = standardOrderFromJson(template.standardOrder);
    assert.equal(order.user, payer.address);
    assert.deepEqual(
      order.inputs,
      [[BigInt(usdc.address!), escrowAmount]],
      "the escrow takes the declared token",
    );

    const tx = winner.executionTx!;
    assert.deepEqual(tx.approvals, [
      {
        chainId: origin.chainId,
        token: undeclaredToken,
        spender: origin.userProxy,
        amount: amountMax.toString(),
      },
    ]);
    assert.equal(tx.steps.length, 1);
    const [step] = tx.steps;
    assert.equal(step!.chainId, origin.chainId);
    assert.equal(step!.to, origin.userProxy);
    assert.equal(step!.value, "0");
    assert.match(step!.description, /^swapAndOpenV2: /);
    const call = decodeFunctionData({ abi: userProxyAbi, data: step!.data as Hex });
    assert.equal(call.functionName, "swapAndOpenV2");
    const [tokenIn, pulled, calledOrder] = call.args as readonly [Hex, bigint, StandardOrder];
    assert.equal(tokenIn.toLowerCase(), undeclaredToken);
    assert.equal(pulled, amountMax);
    assert.deepEqual(normalized(calledOrder), order);

    const expectedId = orderIdentifier(order, origin.chainId, origin.inputSettlers.escrow as Hex);
    assert.equal(winner.onchainOrderId, expectedId);
    assert.deepEqual((winner.disclosure.signablePayload as Json).terms.swapInput, winner.swapInput);
    assertDisclosureHash(winner);
    await assertHeldTwentyMinutes(main, winner);

    const before = await balance(undeclaredToken, payer.address);
    const client = chains.get(origin.chainId);
    const approval = tx.approvals[0]!;
    const approveHash = await client.wallet(payer).writeContract({
      address: approval.token as Hex,
      abi: erc20Abi,
      functionName: "approve",
      args: [approval.spender as Hex, BigInt(approval.amount)],
    });
    assert.equal((await publicClient.waitForTransactionReceipt({ hash: approveHash })).status, "success");
    const receipt = await send(payer, step!);
    assert.equal(decodeOpenLogs(receipt.logs)[0]?.args.orderId, winner.onchainOrderId);
    assert.equal(
      before - (await balance(undeclaredToken, payer.address)),
      amountMax,
      "the user pays amountMax",
    );

    const answer = await openFor(main, winner, "swap-user");
    const envelope = envelopeOf(answer);
    assert.equal(envelope.success, true, answer.body.toString());
    assert.equal(openForAckSchema.parse(envelope.data).orderId, winner.onchainOrderId);
  });

  test("exact-output on the proxy lanes: wrap-native's value is the order's input; swap-token's amountIn and amountMax are quoteExactOutput of the order's declared input", async () => {
    const payer = user(6);
    const wrap = await quote(main, {
      sourceAsset: origin.nativeKey,
      destinationAsset: wrappedKey(destination),
      amount: parseEther("0.1").toString(),
      recipient: payer.address,
      swapType: "exact-output",
    });
    assert.equal(wrap.lane, "oif-wrap-native");
    assert.equal(wrap.output.amount, parseEther("0.1").toString());
    const wrapOrder = standardOrderFromJson((await storedQuote(main, wrap.quoteId)).template.standardOrder);
    assert.equal(wrap.executionTx!.steps[0]!.value, wrapOrder.inputs[0]![1].toString());
    assert.equal(wrap.input.amount, wrapOrder.inputs[0]![1].toString());

    const swap = await quote(main, {
      sourceAsset: undeclaredKey,
      destinationAsset: assetKey(destination, "USDC"),
      amount: "50000000",
      recipient: payer.address,
      swapType: "exact-output",
    });
    assert.equal(swap.lane, "oif-swap-token");
    assert.equal(swap.output.amount, "50000000");
    const swapOrder = standardOrderFromJson((await storedQuote(main, swap.quoteId)).template.standardOrder);
    const usdc = origin.assets.find((a) => a.symbol === "USDC")!;
    const amountMax = await chains.get(origin.chainId).publicClient.readContract({
      address: origin.swapRouter as Hex,
      abi: swapRouterAbi,
      functionName: "quoteExactOutput",
      args: [undeclaredToken, usdc.address as Hex, swapOrder.inputs[0]![1]],
    });
    assert.deepEqual(swap.swapInput, { amountIn: amountMax.toString(), amountMax: amountMax.toString() });
    assert.equal(swap.executionTx!.approvals[0]!.amount, amountMax.toString());
    assertDisclosureHash(swap);
  });

  test("a preview of a native-coin source offers the wrap-native lane with its terms", async () => {
    const envelope = await main.post("/v1/quote/preview", {
      sourceAsset: origin.nativeKey,
      destinationAsset: wrappedKey(destination),
      amount: parseEther("0.2").toString(),
      recipient: user(6).address,
    });
    assert.equal(envelope.success, true, JSON.stringify(envelope));
    const preview = quotePreviewSchema.parse(envelope.data);
    assert.ok(preview.offers.length >= 1);
    for (const offer of preview.offers) {
      assert.equal(offer.lane, "oif-wrap-native");
      assert.deepEqual(offer.input, { asset: origin.nativeKey, amount: parseEther("0.2").toString() });
    }
  });

  test("prepare with a chosen solver serves oif-swap-token too: the prepared winner carries executionTx and swapInput, is stored registrable 20 minutes, and a replay answers it unchanged", async () => {
    const body = {
      sourceAsset: undeclaredKey,
      destinationAsset: assetKey(destination, "USDC"),
      amount: parseEther("3").toString(),
      recipient: user(6).address,
      provider: "devnet.beta",
      preparationId: "proxy-prepare-1",
    };
    const first = await main.post("/v1/quote/prepare", body, "prepare-user");
    assert.equal(first.success, true, JSON.stringify(first));
    const prepared = preparedQuoteSchema.parse(first.data);
    assert.equal(prepared.provider, "devnet.beta");
    assert.equal(prepared.lane, "oif-swap-token");
    assert.deepEqual(prepared.swapInput, {
      amountIn: parseEther("3").toString(),
      amountMax: parseEther("3").toString(),
    });
    assert.equal(prepared.executionTx!.approvals[0]!.amount, parseEther("3").toString());
    await assertHeldTwentyMinutes(main, prepared);
    const replay = await main.post("/v1/quote/prepare", body, "prepare-user");
    assert.deepEqual(replay.data, first.data);
  });

  test("POST /order/openfor without signature on a proxy-lane quote is acked before the deposit exists, with the disclosed on-chain id", async () => {
    const payer = user(7);
    const winner = await quote(
      main,
      {
        sourceAsset: origin.nativeKey,
        destinationAsset: wrappedKey(destination),
        amount: parseEther("0.05").toString(),
        recipient: payer.address,
        sourceAccount: payer.address,
      },
      "early-user",
    );
    const status = await chains.get(origin.chainId).publicClient.readContract({
      address: origin.inputSettlers.escrow as Hex,
      abi: [
        {
          type: "function",
          name: "orderStatus",
          stateMutability: "view",
          inputs: [{ name: "orderId", type: "bytes32" }],
          outputs: [{ name: "", type: "uint8" }],
        },
      ],
      functionName: "orderStatus",
      args: [winner.onchainOrderId as Hex],
    });
    assert.equal(status, 0, "no deposit yet");
    const answer = await openFor(main, winner, "early-user");
    const envelope = envelopeOf(answer);
    assert.equal(envelope.success, true, answer.body.toString());
    const ack = openForAckSchema.parse(envelope.data);
    assert.equal(ack.orderId, winner.onchainOrderId);
    assert.equal(ack.quoteId, winner.quoteId);
    assert.equal(ack.state, "created");
  });

  test("a signature on a proxy-lane quote is EIN0001 reference signature", async () => {
    const winner = await quote(
      main,
      {
        sourceAsset: origin.nativeKey,
        destinationAsset: wrappedKey(destination),
        amount: parseEther("0.05").toString(),
        recipient: user(3).address,
      },
      "signing-user",
    );
    const signature = `0x00${"11".repeat(65)}`;
    assertRefusal(await openFor(main, winner, "signing-user", { signature }), "EIN0001", "signature");
  });

  describe("refusals", () => {
    let bare: ProxyHub;
    let unreadable: ProxyHub;
    let unread: ProxyHub;

    before(async () => {
      const catalog = structuredClone(devnet.catalog);
      for (const chain of catalog.families.evm) {
        delete chain.userProxy;
        delete chain.swapRouter;
      }
      bare = await startProxyHub(devnet, { catalog });
      unreadable = await startProxyHub(devnet, {
        chains: devnet.manifest.chains.map((chain) => ({
          chainId: chain.chainId,
          rpcUrl: "http://127.0.0.1:9",
        })),
      });
      unread = await startProxyHub(devnet, { chains: [] });
    });

    after(async () => {
      await bare?.stop();
      await unreadable?.stop();
      await unread?.stop();
    });

    function body(sourceAsset: string): Json {
      return {
        sourceAsset,
        destinationAsset: assetKey(destination, "USDC"),
        amount: "1000000000000000000",
        recipient: user(3).address,
      };
    }

    test("the native coin on a chain without a user proxy is EIN0008 saying why", async () => {
      const refusal = await bare.post("/v1/quote", body(origin.nativeKey));
      assert.equal(refusal.errors?.[0]?.error_code, "EIN0008");
      assert.match(refusal.message ?? "", /native coin takes no gasless lane.*no user proxy/);
    });

    test("an undeclared token on a chain without a swap router is EIN0008 saying why", async () => {
      const refusal = await bare.post("/v1/quote", body(undeclaredKey));
      assert.equal(refusal.errors?.[0]?.error_code, "EIN0008");
      assert.match(refusal.message ?? "", /is not a declared asset .* no swap router/);
    });

    test("an undeclared token the chain's swap router does not take is EIN0008 naming the token it takes", async () => {
      const other = `${origin.chainDomain}/erc20:0x00000000000000000000000000000000000000d1`;
      const refusal = await main.post("/v1/quote", body(other));
      assert.equal(refusal.errors?.[0]?.error_code, "EIN0008");
      assert.match(refusal.message ?? "", new RegExp(`does not take .*it takes only ${undeclaredKey}`));
    });

    test("a swap router the hub cannot read is EIN0050, and one on a chain it does not read is EIN0008", async () => {
      const failed = await unreadable.post("/v1/quote", body(undeclaredKey));
      assert.equal(failed.errors?.[0]?.error_code, "EIN0050");
      const notRead = await unread.post("/v1/quote", body(undeclaredKey));
      assert.equal(notRead.errors?.[0]?.error_code, "EIN0008");
      assert.match(notRead.message ?? "", /does not read chain/);
    });
  });
});
