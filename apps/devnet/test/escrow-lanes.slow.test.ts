import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  type DevnetAccount,
  devnetUsdcAbi,
  inputSettlerEscrowAbi,
  orderIdentifier,
  outputSettlerAbi,
  type StandardOrderJson,
  standardOrderFromJson,
  userProxyAbi,
} from "@hub/chain";
import { pollUntil } from "@hub/test-support";
import { type Hex, maxUint256, parseEther, parseUnits } from "viem";
import type { OrderResponse } from "../src/aggregator/oif-order.js";
import { evmOrderPayload, type QuotesResponse } from "../src/aggregator/oif-quote.js";
import {
  type AggregatorDevnet,
  call,
  getQuotes as getQuotesFrom,
  quoteRequest,
  readOrder,
  signedEip3009Quote,
  signPayload,
  startAggregatorDevnet,
} from "./aggregator-devnet.js";
import { orderFromQuote } from "./escrow-quote-order.js";

const permit2 = "0x000000000022D473030F116dDEE9F6B43aC78BA3";

let devnet: AggregatorDevnet;
before(async () => {
  devnet = await startAggregatorDevnet();
});
after(async () => {
  await devnet?.stop();
});

async function getQuotes(body: unknown): Promise<QuotesResponse> {
  return getQuotesFrom(devnet, body);
}

async function followToFinal(orderId: string): Promise<{ final: OrderResponse; seen: unknown[] }> {
  const seen: unknown[] = [];
  const final = await pollUntil(
    "the order finalized or failed",
    async () => {
      const answer = await call(devnet.baseUrl, "GET", `/aggregator/api/v1/orders/${orderId}`);
      assert.equal(answer.status, 200, answer.text);
      const order = answer.body as OrderResponse;
      const last = seen.at(-1);
      if (JSON.stringify(last) !== JSON.stringify(order.status)) seen.push(order.status);
      return (order.status === "finalized" || typeof order.status === "object") && order;
    },
    { timeoutMs: 60_000, intervalMs: 50 },
  );
  return { final, seen };
}

async function onChainLifecycle(orderId: Hex, reverse = false) {
  const originChain = reverse ? devnet.destination : devnet.origin;
  const destinationChain = reverse ? devnet.origin : devnet.destination;
  const origin = devnet.clients.get(originChain.chainId).publicClient;
  const destination = devnet.clients.get(destinationChain.chainId).publicClient;
  const [opens, fills, finalised] = await Promise.all([
    origin.getContractEvents({
      address: originChain.contracts.inputSettlerEscrow,
      abi: inputSettlerEscrowAbi,
      eventName: "Open",
      args: { orderId },
      fromBlock: 0n,
    }),
    destination.getContractEvents({
      address: destinationChain.contracts.outputSettler,
      abi: outputSettlerAbi,
      eventName: "OutputFilled",
      args: { orderId },
      fromBlock: 0n,
    }),
    origin.getContractEvents({
      address: originChain.contracts.inputSettlerEscrow,
      abi: inputSettlerEscrowAbi,
      eventName: "Finalised",
      args: { orderId },
      fromBlock: 0n,
    }),
  ]);
  return { opens: opens.length, fills: fills.length, finalised: finalised.length };
}

function assertForwardWalk(seen: unknown[]) {
  const order = ["created", "pending", "executing", "executed", "settling", "settled", "finalized"];
  const ranks = seen.map((s) => order.indexOf(s as string));
  assert.ok(
    ranks.every((r, i) => r >= 0 && (i === 0 || r > ranks[i - 1]!)),
    `status walk ${JSON.stringify(seen)}`,
  );
  assert.equal(seen.at(-1), "finalized");
}

async function approvePermit2(user: DevnetAccount, chainId: number, kind: "usdc" | "token") {
  const chain = devnet.clients.get(chainId);
  const hash = await chain.wallet(user).writeContract({
    address: chain.chain.contracts[kind],
    abi: devnetUsdcAbi,
    functionName: "approve",
    args: [permit2, maxUint256],
  });
  await chain.publicClient.waitForTransactionReceipt({ hash });
}

describe("devnet aggregator in front of two solvers, on real chains", () => {
  test("both solvers quote, at different prices, each quote carrying a valid integrity checksum", async () => {
    const user = devnet.manifest.users[0]!;
    const quotes = await getQuotes(quoteRequest(devnet, user, "usdc", parseUnits("100", 6)));
    assert.equal(quotes.totalQuotes, 2);
    const bySolver = Object.fromEntries(quotes.quotes.map((q) => [q.solverId, q]));
    assert.ok(bySolver.alpha && bySolver.beta);
    assert.notEqual(bySolver.alpha.preview.outputs[0]!.amount, bySolver.beta.preview.outputs[0]!.amount);
    assert.ok(
      BigInt(bySolver.beta.preview.outputs[0]!.amount!) > BigInt(bySolver.alpha.preview.outputs[0]!.amount!),
    );
    assert.deepEqual(
      quotes.quotes.map((q) => q.solverId),
      ["alpha", "beta"],
      "sorted by eta",
    );
    for (const q of quotes.quotes) {
      assert.match(q.integrityChecksum, /^[0-9a-f]{64}$/);
      assert.equal(q.order.type, "oif-escrow-v0");
      assert.equal(q.order.payload.primaryType, "PermitBatchWitnessTransferFrom");
    }
    assert.equal(quotes.metadata.solversRespondedSuccess, 2);
  });

  test("a Permit2 quote signed by a wallet walks to finalized while Open, OutputFilled and Finalised happen on chain", async () => {
    const user = devnet.manifest.users[1]!;
    await approvePermit2(user, devnet.origin.chainId, "usdc");
    const quotes = await getQuotes(quoteRequest(devnet, user, "usdc", parseUnits("250", 6), {}));
    const quote = quotes.quotes.find((q) => q.solverId === "beta")!;
    const signature = await signPayload(user, quote);
    const started = Date.now();
    const submitted = await call(devnet.baseUrl, "POST", "/aggregator/api/v1/orders", {
      quoteResponse: quote,
      signature: `0x00${signature.slice(2)}`,
    });
    assert.equal(submitted.status, 200, submitted.text);
    const ack = submitted.body as OrderResponse;
    assert.equal(ack.status, "created");
    assert.match(ack.orderId, /^[0-9a-f]{64}$/);

    const { final, seen } = await followToFinal(ack.orderId);
    assert.equal(final.status, "finalized", JSON.stringify(final.status));
    assertForwardWalk(seen);
    assert.match(String(final.fillTransaction?.hash), /^0x[0-9a-f]{64}$/);
    assert.ok(Date.now() - started < 60_000);
    assert.deepEqual(await onChainLifecycle(`0x${ack.orderId}`), { opens: 1, fills: 1, finalised: 1 });
  });

  test("a Permit2 order of the declared token from the second chain to the first finalizes on chain the same way", async () => {
    const user = devnet.manifest.users[5]!;
    await approvePermit2(user, devnet.destination.chainId, "token");
    const quotes = await getQuotes(quoteRequest(devnet, user, "token", parseEther("3"), { reverse: true }));
    const quote = quotes.quotes.find((q) => q.solverId === "alpha")!;
    assert.equal(evmOrderPayload(quote.order).domain.chainId, devnet.destination.chainId);
    const signature = await signPayload(user, quote);
    const submitted = await call(devnet.baseUrl, "POST", "/aggregator/api/v1/orders", {
      quoteResponse: quote,
      signature: `0x00${signature.slice(2)}`,
    });
    assert.equal(submitted.status, 200, submitted.text);
    const ack = submitted.body as OrderResponse;
    const { final, seen } = await followToFinal(ack.orderId);
    assert.equal(final.status, "finalized", JSON.stringify(final.status));
    assertForwardWalk(seen);
    assert.deepEqual(await onChainLifecycle(`0x${ack.orderId}`, true), { opens: 1, fills: 1, finalised: 1 });
  });

  test("an EIP-3009 quote signed raw walks to finalized, its order id being the authorization nonce", async () => {
    const user = devnet.manifest.users[2]!;
    const quotes = await getQuotes(
      quoteRequest(devnet, user, "usdc", parseUnits("75", 6), {
        supportedTypes: ["oif-3009-v0", "oif-escrow-v0"],
        schemes: ["eip3009"],
      }),
    );
    const quote = quotes.quotes.find((q) => q.solverId === "alpha")!;
    assert.equal(quote.order.type, "oif-3009-v0");
    assert.equal(quote.order.payload.primaryType, "ReceiveWithAuthorization");
    const signature = await signPayload(user, quote);
    const submitted = await call(devnet.baseUrl, "POST", "/aggregator/api/v1/orders", {
      quoteResponse: quote,
      signature,
    });
    assert.equal(submitted.status, 200, submitted.text);
    const ack = submitted.body as OrderResponse;
    assert.equal(`0x${ack.orderId}`, quote.order.payload.message.nonce);

    const { final, seen } = await followToFinal(ack.orderId);
    assert.equal(final.status, "finalized", JSON.stringify(final.status));
    assertForwardWalk(seen);
    assert.deepEqual(await onChainLifecycle(`0x${ack.orderId}`), { opens: 1, fills: 1, finalised: 1 });
  });

  test("an unsigned registration is acked before any deposit and filled once the user opens it through wrapAndOpen", async () => {
    const user = devnet.manifest.users[3]!;
    const amount = parseEther("0.5");
    const quotes = await getQuotes(quoteRequest(devnet, user, "wrappedNative", amount));
    const quote = quotes.quotes.find((q) => q.solverId === "alpha")!;
    const submitted = await call(devnet.baseUrl, "POST", "/aggregator/api/v1/orders", {
      quoteResponse: quote,
    });
    assert.equal(submitted.status, 200, submitted.text);
    const ack = submitted.body as OrderResponse;
    assert.equal(ack.status, "created");

    const origin = devnet.clients.get(devnet.origin.chainId);
    const escrowStatus = await origin.publicClient.readContract({
      address: devnet.origin.contracts.inputSettlerEscrow,
      abi: inputSettlerEscrowAbi,
      functionName: "orderStatus",
      args: [`0x${ack.orderId}`],
    });
    assert.equal(Number(escrowStatus), 0, "no deposit exists at registration");
    const before = await call(devnet.baseUrl, "GET", `/aggregator/api/v1/orders/${ack.orderId}`);
    assert.equal((before.body as OrderResponse).status, "created");

    // Rebuild the StandardOrder from the signable payload, as the hub compiles the proxy step.
    const order = orderFromQuote(quote);
    assert.equal(
      orderIdentifier(order, devnet.origin.chainId, devnet.origin.contracts.inputSettlerEscrow).slice(2),
      ack.orderId,
    );
    const hash = await origin.wallet(user).writeContract({
      address: devnet.origin.contracts.userProxy,
      abi: userProxyAbi,
      functionName: "wrapAndOpen",
      args: [order],
      value: amount,
    });
    await origin.publicClient.waitForTransactionReceipt({ hash });

    const { final, seen } = await followToFinal(ack.orderId);
    assert.equal(final.status, "finalized", JSON.stringify(final.status));
    assertForwardWalk(seen);
    assert.deepEqual(await onChainLifecycle(`0x${ack.orderId}`), { opens: 1, fills: 1, finalised: 1 });
  });

  test("the aggregator refuses a quote whose checksummed fields were tampered with", async () => {
    const user = devnet.manifest.users[4]!;
    const quotes = await getQuotes(quoteRequest(devnet, user, "token", parseEther("10")));
    const quote = quotes.quotes[0]!;
    const richer = structuredClone(quote);
    richer.preview.outputs[0]!.amount = (BigInt(quote.preview.outputs[0]!.amount!) * 2n).toString();
    const longer = { ...structuredClone(quote), validUntil: quote.validUntil! + 3600 };
    for (const tampered of [richer, longer]) {
      const answer = await call(devnet.baseUrl, "POST", "/aggregator/api/v1/orders", {
        quoteResponse: tampered,
        signature: `0x00${"11".repeat(65)}`,
      });
      assert.equal(answer.status, 500, answer.text);
      const body = answer.body as { error: string; message: string; timestamp: number };
      assert.equal(body.error, "INTERNAL_ERROR");
      assert.equal(body.message, "quote integrity verification failed");
      assert.equal(typeof body.timestamp, "number");
    }
  });
  // Last in the file: it moves the origin chain's clock past the order's expiry.
  test("an order refunded on chain before the solver could claim reads refunded, and later quotes still open", async () => {
    devnet.committee.setDelayMs(600_000);
    try {
      const user = devnet.manifest.users[6]!;
      const { quote, signature } = await signedEip3009Quote(devnet, user, "beta", parseUnits("20", 6));
      const submitted = await call(devnet.baseUrl, "POST", "/aggregator/api/v1/orders", {
        quoteResponse: quote,
        signature,
      });
      assert.equal(submitted.status, 200, submitted.text);
      const { orderId } = submitted.body as OrderResponse;
      const settling = await pollUntil(
        "the order settling",
        async () => {
          const order = await readOrder(devnet, orderId);
          return order.status === "settling" && order;
        },
        { timeoutMs: 30_000, intervalMs: 50 },
      );
      assert.equal(settling.status, "settling");

      assert.equal(quote.order.type, "oif-3009-v0");
      const json = (quote.order as { metadata: { standardOrder: StandardOrderJson } }).metadata.standardOrder;
      const order = standardOrderFromJson(json);
      const origin = devnet.clients.get(devnet.origin.chainId);
      await origin.publicClient.request({ method: "evm_increaseTime" as never, params: [700] as never });
      await origin.publicClient.request({ method: "evm_mine" as never, params: [] as never });
      const hash = await origin.wallet(user).writeContract({
        address: devnet.origin.contracts.inputSettlerEscrow,
        abi: inputSettlerEscrowAbi,
        functionName: "refund",
        args: [order],
      });
      assert.equal((await origin.publicClient.waitForTransactionReceipt({ hash })).status, "success");
      const refunded = await pollUntil(
        "the order refunded",
        async () => {
          const order = await readOrder(devnet, orderId);
          return order.status === "refunded" && order;
        },
        { timeoutMs: 30_000, intervalMs: 50 },
      );
      assert.equal(refunded.status, "refunded");
      assert.equal((await onChainLifecycle(`0x${orderId}`)).finalised, 0);
    } finally {
      devnet.committee.setDelayMs(100);
    }

    const user = devnet.manifest.users[7]!;
    const { quote, signature } = await signedEip3009Quote(devnet, user, "alpha", parseUnits("5", 6));
    const submitted = await call(devnet.baseUrl, "POST", "/aggregator/api/v1/orders", {
      quoteResponse: quote,
      signature,
    });
    assert.equal(submitted.status, 200, submitted.text);
    const { final } = await followToFinal((submitted.body as OrderResponse).orderId);
    assert.equal(final.status, "finalized", JSON.stringify(final.status));
  });
});

describe("solver HTTP API and its refusals", () => {
  const solverQuote = (body: unknown) => call(devnet.baseUrl, "POST", "/solvers/alpha/api/v1/quotes", body);

  test("a solver refuses same-chain, mixed-asset and unsupported-settlement requests with 422", async () => {
    const user = devnet.manifest.users[4]!;
    const request = quoteRequest(devnet, user, "usdc", parseUnits("1", 6));
    const sameChain = structuredClone(request);
    sameChain.intent.outputs[0]!.asset = request.intent.inputs[0]!.asset;
    const mixed = structuredClone(request);
    mixed.intent.outputs[0]!.asset = quoteRequest(devnet, user, "token", 1n).intent.outputs[0]!.asset;
    const only3009 = quoteRequest(devnet, user, "usdc", parseUnits("1", 6), {
      supportedTypes: ["oif-escrow-v0"],
      schemes: ["eip3009"],
    });
    for (const [body, code] of [
      [sameChain, "UNSUPPORTED_ASSET"],
      [mixed, "UNSUPPORTED_ASSET"],
      [only3009, "UNSUPPORTED_SETTLEMENT"],
    ] as const) {
      const answer = await solverQuote(body);
      assert.equal(answer.status, 422, answer.text);
      assert.equal((answer.body as { error: string }).error, code);
    }
  });

  test("a token without EIP-3009 is quoted on Permit2 even when the request offers eip3009", async () => {
    const user = devnet.manifest.users[4]!;
    const answer = await solverQuote(
      quoteRequest(devnet, user, "token", parseEther("1"), {
        supportedTypes: ["oif-3009-v0", "oif-escrow-v0"],
        schemes: ["eip3009"],
      }),
    );
    assert.equal(answer.status, 200, answer.text);
    assert.equal((answer.body as QuotesResponse).quotes[0]!.order.type, "oif-escrow-v0");
  });

  test("a signed order that would not open (no Permit2 approval, or a foreign signature) is refused 422 SOLVER_REJECTED and nothing opens", async () => {
    const user = devnet.manifest.users[4]!;
    const stranger = devnet.manifest.users[5]!;
    const quotes = await getQuotes(quoteRequest(devnet, user, "usdc", parseUnits("2", 6)));
    const opens = () =>
      devnet.clients.get(devnet.origin.chainId).publicClient.getContractEvents({
        address: devnet.origin.contracts.inputSettlerEscrow,
        abi: inputSettlerEscrowAbi,
        eventName: "Open",
        fromBlock: 0n,
      });
    const opensBefore = (await opens()).length;
    for (const [quote, signer] of [
      [quotes.quotes[0]!, user],
      [quotes.quotes[1]!, stranger],
    ] as const) {
      const signature = await signPayload(signer, quote);
      const answer = await call(devnet.baseUrl, "POST", "/aggregator/api/v1/orders", {
        quoteResponse: quote,
        signature,
      });
      assert.equal(answer.status, 422, answer.text);
      const body = answer.body as { error: string; message: string };
      assert.equal(body.error, "SOLVER_REJECTED");
      assert.match(body.message, /openFor would revert/);
    }
    assert.equal((await opens()).length, opensBefore);
  });

  test("re-posting a signed order returns the same order id and opens it once", async () => {
    const user = devnet.manifest.users[7]!;
    const { quote, signature } = await signedEip3009Quote(devnet, user, "beta", parseUnits("4", 6));
    const first = await call(devnet.baseUrl, "POST", "/aggregator/api/v1/orders", {
      quoteResponse: quote,
      signature,
    });
    const second = await call(devnet.baseUrl, "POST", "/aggregator/api/v1/orders", {
      quoteResponse: quote,
      signature,
    });
    assert.equal(first.status, 200, first.text);
    assert.equal(second.status, 200, second.text);
    const orderId = (first.body as OrderResponse).orderId;
    assert.equal((second.body as OrderResponse).orderId, orderId);
    const { final } = await followToFinal(orderId);
    assert.equal(final.status, "finalized");
    assert.deepEqual(await onChainLifecycle(`0x${orderId}`), { opens: 1, fills: 1, finalised: 1 });
  });

  test("solvers list their assets as interop addresses, and the aggregator lists both solvers with them", async () => {
    const assets = await call(devnet.baseUrl, "GET", "/solvers/beta/api/v1/assets");
    assert.equal(assets.status, 200);
    const networks = (
      assets.body as {
        networks: Record<string, { chain_id: number; assets: { address: string; symbol: string }[] }>;
      }
    ).networks;
    assert.deepEqual(Object.keys(networks).sort(), [
      String(devnet.origin.chainId),
      String(devnet.destination.chainId),
    ]);
    for (const network of Object.values(networks)) {
      assert.deepEqual(network.assets.map((a) => a.symbol).sort(), ["TKN", "USDC", "WETH"].sort());
      for (const asset of network.assets) assert.match(asset.address, /^0x00010000/);
    }
    const unknown = await call(devnet.baseUrl, "GET", `/solvers/beta/api/v1/orders/0x${"cd".repeat(32)}`);
    assert.equal(unknown.status, 400);
    assert.equal((unknown.body as { error: string }).error, "ORDER_NOT_FOUND");
    const solvers = await call(devnet.baseUrl, "GET", "/aggregator/api/v1/solvers");
    const list = solvers.body as {
      solvers: { solverId: string; supportedAssets: { assets: unknown[] } }[];
      totalSolvers: number;
    };
    assert.equal(list.totalSolvers, 2);
    assert.deepEqual(
      list.solvers.map((s) => [s.solverId, s.supportedAssets.assets.length]),
      [
        ["alpha", 6],
        ["beta", 6],
      ],
    );
  });
});
