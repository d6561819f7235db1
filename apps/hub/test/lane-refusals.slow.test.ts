import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  type HubOrderStatus,
  hubOrderId,
  type OnchainFill,
  type OnchainTxOrder,
  type OrderCreateAck,
  type OrdersList,
  openForAckSchema,
  orderCreateAckSchema,
  preparedQuoteSchema,
  type QuoteWinner,
  type UpstreamOrderStatus,
} from "@hub/contract";
import { erc20Abi, type Hex, parseEther } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import {
  dataOf,
  disposeLaneDatabases,
  type LaneAnswer,
  type LaneStack,
  refusalOf,
  startLaneStack,
} from "./lane-stack.js";
import { type LaneWallet, laneWallet } from "./lane-wallet.js";
import { readSubmission } from "./store/submission-rows.js";

/** Past the 30 s quote lifetime, well inside the 20-minute proxy-lane hold. */
const PAST_EXPIRY_MS = 45_000;

describe("refusals of the submission routes, through the gateway on the devnet", () => {
  let stack: LaneStack;
  let subjects = 0;

  before(async () => {
    stack = await startLaneStack();
  });

  after(async () => {
    await stack?.stop();
    await disposeLaneDatabases();
  });

  function wallet(userIndex: number): LaneWallet {
    return laneWallet(stack, stack.devnet.manifest.users[userIndex]!, `refusals-${++subjects}`);
  }

  function wrapNative(payer: LaneWallet, amount = parseEther("0.05")): Promise<QuoteWinner> {
    return payer.quote({
      sourceAsset: stack.origin.nativeKey,
      destinationAsset: stack.destination.wrappedKey,
      amount: amount.toString(),
      recipient: payer.address,
      sourceAccount: payer.address,
    });
  }

  let preparations = 0;

  /** A Permit2-lane (OIF) quote: prepared with one OIF solver, since a bridge may win the open round. */
  async function permit2Lane(payer: LaneWallet): Promise<QuoteWinner> {
    const tkn = (chain: typeof stack.origin) => chain.assets.find((a) => a.symbol === "TKN")!.key;
    const answer = await stack.api("POST", "/v1/quote/prepare", {
      subject: payer.subject,
      json: {
        sourceAsset: tkn(stack.origin),
        destinationAsset: tkn(stack.destination),
        amount: "1000000000000000000",
        recipient: payer.address,
        sourceAccount: payer.address,
        provider: "devnet.alpha",
        preparationId: `lane-refusals-${++preparations}`,
      },
    });
    return preparedQuoteSchema.parse(dataOf(answer));
  }

  /** A USDC transfer across the two chains: the external aggregator's bridge wins (open flow). */
  async function openFlow(
    payer: LaneWallet,
    options: { sourceAccount?: boolean } = {},
  ): Promise<QuoteWinner> {
    const usdc = (chain: typeof stack.origin) => chain.assets.find((a) => a.symbol === "USDC")!.key;
    const winner = await payer.quote({
      sourceAsset: usdc(stack.origin),
      destinationAsset: usdc(stack.destination),
      amount: "2500000",
      recipient: payer.address,
      ...(options.sourceAccount === false ? {} : { sourceAccount: payer.address }),
    });
    assert.equal(winner.lane, "open-flow");
    return winner;
  }

  /** A same-chain quote the external aggregator answers: USDC to TKN is a solver-swap, USDC to USDC a transfer. */
  async function sameChain(payer: LaneWallet, to: "TKN" | "USDC"): Promise<QuoteWinner> {
    const key = (symbol: string) => stack.origin.assets.find((a) => a.symbol === symbol)!.key;
    const winner = await payer.quote({
      sourceAsset: key("USDC"),
      destinationAsset: key(to),
      amount: "2500000",
      recipient: payer.address,
      sourceAccount: payer.address,
    });
    assert.equal(winner.lane, to === "TKN" ? "solver-swap" : "transfer");
    assert.equal(winner.signPayload, undefined, "discloses no signPayload");
    assert.equal(winner.executionTx, undefined, "discloses no executionTx");
    return winner;
  }

  function assertRefused(answer: LaneAnswer, code: string, reference: string): void {
    const refusal = refusalOf(answer);
    assert.deepEqual([refusal.code, refusal.reference], [code, reference], answer.text);
  }

  /** A complete signature set: signer's personal_sign of the winner's signIntent (or of `message`). */
  async function signed(signer: LaneWallet, winner: QuoteWinner, extra: Record<string, unknown> = {}) {
    return {
      quoteId: winner.quoteId,
      artifactHash: winner.disclosure.signableHash,
      signature: await signer.signIntent(winner),
      signer: signer.address,
      scheme: "eip191",
      ...extra,
    };
  }

  describe("POST /order/openfor", () => {
    test("a proxy-lane registration after expiresAt is EIN0007 (upstream 400: the quote expired); the deposit is still filled by the solver and followed by the tx-to-order and fill views, never by the status routes", async () => {
      const payer = wallet(1);
      const winner = await wrapNative(payer);
      assert.equal(winner.lane, "oif-wrap-native");
      const [step] = await payer.send(winner.executionTx!, "integer");

      // The devnet's off-chain clock only moves forward: later quotes are issued on it and stay valid.
      const clock = (await stack.control("POST", "/clock/advance", { ms: PAST_EXPIRY_MS })) as {
        nowMs: number;
      };
      assert.ok(clock.nowMs > Date.parse(winner.expiresAt), "the aggregator sees the quote expired");
      const refusal = refusalOf(await payer.openFor(winner));
      assert.equal(refusal.code, "EIN0007");
      const row = await readSubmission(stack.db.sql, winner.quoteId);
      assert.equal(row?.state, "refused");
      // The specification's refusal has no code, only its message (the reference's: QUOTE_EXPIRED).
      assert.match(row?.last_detail ?? "", /^upstream 400 .*expired at/);

      const byTx = await payer.follow<OnchainTxOrder>(
        `/v1/onchain/tx/${step!.chainDomain}/${step!.hash}/order`,
        (read) => read.orderId !== null,
        15_000,
      );
      assert.equal(byTx.orderId, winner.onchainOrderId, "the deposit's transaction resolves to its order");
      assert.equal(byTx.event, "open");
      const fill = await payer.follow<OnchainFill>(
        `/v1/onchain/${byTx.orderId}/fill`,
        (read) => read.settled,
        45_000,
      );
      assert.equal(fill.filled, true, "the solver filled the unregistered deposit");

      const status = refusalOf(
        await stack.api("GET", `/v1/order/${hubOrderId(winner.quoteId)}/status`, { subject: payer.subject }),
      );
      assert.equal(status.code, "EIN0009", "the refused order is not recorded");
      const listed = dataOf<OrdersList>(await stack.api("GET", "/v1/orders", { subject: payer.subject }));
      assert.deepEqual(listed.orders, []);
    });

    test("a proxy-lane registration without a deposit is acked all the same, and the order completes once the wallet sends the step", async () => {
      const payer = wallet(2);
      const winner = await wrapNative(payer);
      const escrowStatus = await stack.chains.get(stack.origin.chainId).publicClient.readContract({
        address: stack.origin.inputSettlers.escrow as Hex,
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
      assert.equal(escrowStatus, 0, "nothing deposited");
      const ack = openForAckSchema.parse(dataOf(await payer.openFor(winner)));
      assert.equal(ack.orderId, winner.onchainOrderId);
      assert.equal(ack.hubOrderId, hubOrderId(winner.quoteId));
      assert.equal(ack.state, "created");

      await payer.send(winner.executionTx!, "integer");
      const status = await payer.follow<UpstreamOrderStatus>(`/v1/order/${ack.hubOrderId}/status`, (read) =>
        ["finalized", "failed", "refunded"].includes(read.state),
      );
      assert.equal(status.state, "finalized", JSON.stringify(status));
    });

    for (const to of ["TKN", "USDC"] as const) {
      test(`a same-chain ${to === "TKN" ? "solver-swap" : "transfer"} winner is EIN0001 pointing to POST /order`, async () => {
        const payer = wallet(3);
        const refusal = refusalOf(await payer.openFor(await sameChain(payer, to)));
        assert.equal(refusal.code, "EIN0001");
        assert.match(refusal.message ?? "", /POST \/order\b/);
      });
    }

    test("an open-flow winner is EIN0001", async () => {
      const payer = wallet(3);
      const refusal = refusalOf(await payer.openFor(await openFlow(payer)));
      assert.equal(refusal.code, "EIN0001");
      assert.match(refusal.message ?? "", /POST \/order\b/);
    });
  });

  describe("POST /order", () => {
    test("an unknown quote is EIN0010", async () => {
      const payer = wallet(4);
      const refusal = refusalOf(
        await payer.createOrder({
          quoteId: "q_unknown-quote-of-nobody",
          artifactHash: `0x${"ab".repeat(32)}`,
        }),
      );
      assert.deepEqual([refusal.code, refusal.reference], ["EIN0010", "quoteId"]);
    });

    test("an OIF-lane quote is EIN0007 at re-approval, before any signature check", async () => {
      const payer = wallet(4);
      const winner = await permit2Lane(payer);
      assert.equal(winner.lane, "oif-escrow-gasless");
      for (const body of [
        { quoteId: winner.quoteId, artifactHash: winner.disclosure.signableHash },
        {
          quoteId: winner.quoteId,
          artifactHash: `0x${"00".repeat(32)}`,
          signature: "0x1234",
          signer: payer.address,
          scheme: "eip191",
        },
      ]) {
        const refusal = refusalOf(await payer.createOrder(body));
        assert.deepEqual([refusal.code, refusal.reference], ["EIN0007", "quoteId"], JSON.stringify(body));
      }
    });

    test("a proxy-lane quote is EIN0007 at re-approval, before any signature check", async () => {
      const payer = wallet(4);
      const winner = await wrapNative(payer);
      for (const body of [
        { quoteId: winner.quoteId, artifactHash: winner.disclosure.signableHash },
        { quoteId: winner.quoteId, artifactHash: winner.disclosure.signableHash, signature: "0x12" },
      ]) {
        const refusal = refusalOf(await payer.createOrder(body));
        assert.deepEqual([refusal.code, refusal.reference], ["EIN0007", "quoteId"], JSON.stringify(body));
      }
    });

    test("a transfer winner (same token, same chain, from the external aggregator) is EIN0007 at re-approval: only open-flow winners are registered, a solver-swap only recorded", async () => {
      const payer = wallet(4);
      const winner = await sameChain(payer, "USDC");
      for (const body of [
        { quoteId: winner.quoteId, artifactHash: winner.disclosure.signableHash },
        {
          quoteId: winner.quoteId,
          artifactHash: winner.disclosure.signableHash,
          signature: await privateKeyToAccount(stack.devnet.manifest.users[4]!.privateKey).signMessage({
            message: winner.disclosure.signableHash,
          }),
          signer: payer.address,
          scheme: "eip191",
        },
      ]) {
        const refusal = refusalOf(await payer.createOrder(body));
        assert.deepEqual([refusal.code, refusal.reference], ["EIN0007", "quoteId"], JSON.stringify(body));
        assert.match(refusal.message ?? "", /transfer winner/);
      }
      const status = refusalOf(await stack.api("GET", `/v1/status/${hubOrderId(winner.quoteId)}`));
      assert.equal(status.code, "EIN0009", "nothing was registered");
    });

    test("a first registration at or after expiresAt is EIN0005 (hub clock skewed past it)", async (t) => {
      const payer = wallet(5);
      const winner = await openFlow(payer);
      const body = await signed(payer, winner);
      stack.hubClock.skewMs = Date.parse(winner.expiresAt) - Date.now() + 1000;
      t.after(() => {
        stack.hubClock.skewMs = 0;
      });
      assert.equal(refusalOf(await payer.createOrder(body)).code, "EIN0005");
    });

    test("an artifactHash other than the quote's signableHash is EIN0010", async () => {
      const payer = wallet(5);
      const winner = await openFlow(payer);
      const body = await signed(payer, winner, { artifactHash: `0x${"cd".repeat(32)}` });
      assertRefused(await payer.createOrder(body), "EIN0010", "artifactHash");
    });

    test("a partial signature set is EIN0010", async () => {
      const payer = wallet(5);
      const winner = await openFlow(payer);
      const { scheme: _scheme, ...withoutScheme } = await signed(payer, winner);
      const { signer: _signer, ...withoutSigner } = await signed(payer, winner);
      assertRefused(await payer.createOrder(withoutScheme), "EIN0010", "scheme");
      assertRefused(await payer.createOrder(withoutSigner), "EIN0010", "signer");
    });

    test("an unsigned registration without the deployment flag is EIN0010", async () => {
      const payer = wallet(5);
      const winner = await openFlow(payer);
      const refusal = refusalOf(
        await payer.createOrder({ quoteId: winner.quoteId, artifactHash: winner.disclosure.signableHash }),
      );
      assert.deepEqual([refusal.code, refusal.reference], ["EIN0010", "signature"]);
    });

    test("a scheme other than eip191 is EIN0010", async () => {
      const payer = wallet(5);
      const winner = await openFlow(payer);
      const body = await signed(payer, winner, { scheme: "eip712" });
      assertRefused(await payer.createOrder(body), "EIN0010", "scheme");
    });

    test("a signer other than the quote's sourceAccount is EIN0010, even with its own valid signature", async () => {
      const payer = wallet(5);
      const other = wallet(6);
      const winner = await openFlow(payer);
      assertRefused(await payer.createOrder(await signed(other, winner)), "EIN0010", "signer");
    });

    test("a signature that is not the sourceAccount's personal_sign of signIntent is EIN0010", async () => {
      const payer = wallet(5);
      const other = wallet(6);
      const winner = await openFlow(payer);
      const forged = await signed(other, winner, { signer: payer.address });
      assertRefused(await payer.createOrder(forged), "EIN0010", "signature");
      const garbled = await signed(payer, winner, { signature: `0x${"11".repeat(65)}` });
      assertRefused(await payer.createOrder(garbled), "EIN0010", "signature");
    });

    test("a quote requested without sourceAccount has no signIntent, and a signed registration of it is EIN0006", async () => {
      const payer = wallet(5);
      const winner = await openFlow(payer, { sourceAccount: false });
      assert.equal(winner.sourceAccount, undefined);
      assert.equal(winner.signIntent, undefined, "nothing to sign");
      const refusal = refusalOf(
        await payer.createOrder({
          quoteId: winner.quoteId,
          artifactHash: winner.disclosure.signableHash,
          signature: await privateKeyToAccount(stack.devnet.manifest.users[5]!.privateKey).signMessage({
            message: winner.disclosure.signableHash,
          }),
          signer: payer.address,
          scheme: "eip191",
        }),
      );
      assert.deepEqual([refusal.code, refusal.reference], ["EIN0006", "signer"]);
    });

    test("a repeat after expiresAt with other signature fields answers the first ack", async (t) => {
      const payer = wallet(5);
      const winner = await openFlow(payer);
      const first = orderCreateAckSchema.parse(dataOf(await payer.createOrder(await signed(payer, winner))));
      assert.equal(first.orderId, hubOrderId(winner.quoteId));
      assert.equal(first.quoteId, winner.quoteId);
      stack.hubClock.skewMs = Date.parse(winner.expiresAt) - Date.now() + 60_000;
      t.after(() => {
        stack.hubClock.skewMs = 0;
      });
      for (const repeat of [
        { quoteId: winner.quoteId, artifactHash: winner.disclosure.signableHash },
        { quoteId: winner.quoteId, artifactHash: `0x${"ef".repeat(32)}`, signature: "0x00", scheme: "other" },
        await signed(wallet(6), winner),
      ]) {
        const again = orderCreateAckSchema.parse(dataOf(await payer.createOrder(repeat)));
        assert.deepEqual(again, first, JSON.stringify(repeat));
      }
    });

    test("a repeat for an order created through openFor answers that order's ack", async () => {
      const payer = wallet(5);
      const winner = await wrapNative(payer);
      const openForAck = openForAckSchema.parse(dataOf(await payer.openFor(winner)));
      const ack: OrderCreateAck = orderCreateAckSchema.parse(
        dataOf(await payer.createOrder({ quoteId: winner.quoteId, artifactHash: `0x${"00".repeat(32)}` })),
      );
      assert.deepEqual(ack, {
        orderId: openForAck.hubOrderId,
        quoteId: winner.quoteId,
        createdAt: openForAck.submittedAt,
      });
      const status = refusalOf(await stack.api("GET", `/v1/status/${ack.orderId}`));
      assert.equal(status.code, "EIN0009", "an openFor order is followed by GET /order/{orderId}/status");
    });

    test("a solver-swap winner is recorded and moves no funds: balances unchanged, GET /status shows it recorded", async () => {
      const payer = wallet(7);
      const client = stack.chains.get(stack.origin.chainId).publicClient;
      const tokens = ["USDC", "TKN"].map(
        (symbol) => stack.origin.assets.find((a) => a.symbol === symbol)!.address as Hex,
      );
      const balances = () =>
        Promise.all(
          tokens.map((token) =>
            client.readContract({
              address: token,
              abi: erc20Abi,
              functionName: "balanceOf",
              args: [payer.address],
            }),
          ),
        );
      const before = await balances();
      const winner = await sameChain(payer, "TKN");
      const ack = orderCreateAckSchema.parse(dataOf(await payer.createOrder(await signed(payer, winner))));
      assert.equal(ack.orderId, hubOrderId(winner.quoteId));
      const status = dataOf<HubOrderStatus>(await stack.api("GET", `/v1/status/${ack.orderId}`));
      assert.equal(status.orderId, ack.orderId);
      assert.equal(status.quoteId, winner.quoteId);
      assert.equal(status.lane, "solver-swap");
      assert.equal(status.state, "recorded");
      assert.equal(status.final, true, "nothing to follow");
      assert.equal(status.sourceTx, undefined, "nothing moved on chain");
      assert.deepEqual(await balances(), before, "the wallet's balances are unchanged");
    });
  });
});
