import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { inputSettlerEscrowAbi } from "@hub/chain";
import {
  type OpenForAck,
  openForAckSchema,
  orderCreateAckSchema,
  type QuoteWinner,
  upstreamOrderStatusSchema,
} from "@hub/contract";
import { pollUntil } from "@hub/test-support";
import type { Hex } from "viem";
import { createQuoteStore } from "../src/store/quote-store.js";
import { oifDialects } from "../src/providers/index.js";
import { readSubmission, readUpstreamView } from "./store/submission-rows.js";
import {
  approvePermit2,
  codeOf,
  disposeSubmissionDatabases,
  hubOrderIdOf,
  quoteFor,
  type SubmissionStack,
  signWinner,
  startSubmissionStack,
  type User,
} from "./submission-stack.js";
import { type HubTestDevnet, startHubTestDevnet } from "./upstream-devnet.js";

for (const dialect of oifDialects) {
  describe(`POST /order/openfor against the devnet, through the gateway (upstream dialect ${dialect})`, () => {
    let devnet: HubTestDevnet;
    let stack: SubmissionStack;
    let permit2User: User;
    let eip3009User: User;
    let subjectCount = 0;
    const freshSubject = () => `submitter-${++subjectCount}`;

    before(async () => {
      devnet = await startHubTestDevnet();
      stack = await startSubmissionStack(devnet, {
        gatewayTimeoutMs: 1500,
        providerTimeoutMs: 5000,
        dialect,
      });
      permit2User = devnet.manifest.users[1]!;
      eip3009User = devnet.manifest.users[2]!;
      await approvePermit2(stack, permit2User, "TKN");
    });

    after(async () => {
      await stack?.stop();
      await devnet?.stop();
      await disposeSubmissionDatabases();
    });

    async function upstreamQuoteIdOf(winner: QuoteWinner): Promise<string> {
      const quote = await createQuoteStore(stack.db.sql).get(winner.quoteId);
      const template = quote!.template as {
        quoteResponse: { quoteId: string };
      };
      return template.quoteResponse.quoteId;
    }

    async function reservationState(winner: QuoteWinner): Promise<string | undefined> {
      return (await readSubmission(stack.db.sql, winner.quoteId))?.state;
    }

    async function openEvents(onchainOrderId: string) {
      return stack.chains.get(stack.origin.chainId).publicClient.getContractEvents({
        address: stack.origin.inputSettlers.escrow as Hex,
        abi: inputSettlerEscrowAbi,
        eventName: "Open",
        args: { orderId: onchainOrderId as Hex },
        fromBlock: 0n,
      });
    }

    async function signedOrder(symbol: "USDC" | "TKN", amount = "1000000") {
      const user = symbol === "TKN" ? permit2User : eip3009User;
      const subject = freshSubject();
      const winner = await quoteFor(stack, user, subject, symbol, amount);
      const body = {
        quoteRequestId: winner.quoteRequestId,
        quoteId: winner.quoteId,
        signature: await signWinner(user, winner),
      };
      const post = () => stack.api("POST", "/v1/order/openfor", { subject, json: body });
      return { user, subject, winner, body, post };
    }

    function ackOf(answer: Awaited<ReturnType<SubmissionStack["api"]>>): OpenForAck {
      assert.equal(answer.envelope.success, true, answer.text);
      return openForAckSchema.parse(answer.envelope.data);
    }

    async function setSolverKnobs(knobs: Record<string, unknown>) {
      for (const solver of ["alpha", "beta"])
        await devnet.control("POST", `/solvers/${solver}/faults`, knobs);
    }

    test("a Permit2 order is acked with the upstream's on-chain id, its first upstream view (created) is written with the ack and the status read answers at once, and the Open on chain carries that id", async () => {
      const order = await signedOrder("TKN", "2000000000000000000");
      assert.equal(order.winner.lane, "oif-escrow-gasless");
      const ack = ackOf(await order.post());
      assert.match(ack.orderId, /^0x[0-9a-f]{64}$/);
      assert.equal(ack.hubOrderId, hubOrderIdOf(order.winner));
      assert.equal(ack.quoteId, order.winner.quoteId);
      assert.equal(ack.state, "created");

      const status = await stack.api("GET", `/v1/order/${ack.hubOrderId}/status`, { subject: order.subject });
      assert.equal(status.envelope.success, true, status.text);
      assert.equal(upstreamOrderStatusSchema.parse(status.envelope.data).stateSource, "upstream-advisory");

      const view = await readUpstreamView(stack.db.sql, ack.hubOrderId);
      assert.deepEqual(view, {
        state: "created",
        stateSource: "upstream-advisory",
        finalityVerified: false,
        upstreamFillReported: false,
        history: [{ state: "created", at: ack.submittedAt }],
        rejectedUpstreamTransition: false,
        upstreamStale: false,
      });

      const row = await readSubmission(stack.db.sql, order.winner.quoteId);
      assert.equal(row!.onchain_order_id_source, "upstream");
      const opens = await pollUntil(
        "the solver opens the order",
        async () => {
          const events = await openEvents(ack.orderId);
          return events.length > 0 ? events : undefined;
        },
        { timeoutMs: 30_000, intervalMs: 100 },
      );
      assert.equal(opens.length, 1);
      assert.equal(opens[0]!.args.orderId, ack.orderId);
    });

    test("an EIP-3009 order is acked with the quote's recomputed on-chain id (verified), opened on chain under it", async () => {
      const order = await signedOrder("USDC", "3000000");
      assert.equal(order.winner.lane, "aggregator-gasless");
      const ack = ackOf(await order.post());
      assert.equal(ack.orderId, order.winner.onchainOrderId);
      const row = await readSubmission(stack.db.sql, order.winner.quoteId);
      assert.equal(row!.onchain_order_id_source, "verified");
      await pollUntil(
        "the solver opens the order",
        async () => ((await openEvents(ack.orderId)).length === 1 ? true : undefined),
        { timeoutMs: 30_000, intervalMs: 100 },
      );
    });

    test("an identical re-post returns the same ack and the upstream got one forward for the quote", async () => {
      const order = await signedOrder("USDC", "1500000");
      const first = ackOf(await order.post());
      const again = await Promise.all([order.post(), order.post()]);
      for (const answer of again) assert.deepEqual(ackOf(answer), first);
      assert.equal(stack.proxy.forwardsOf(await upstreamQuoteIdOf(order.winner)), 1);
    });

    test("POST /order for an openFor-acked quote returns that order's ack (orderId = hubOrderId, createdAt = submittedAt), after expiresAt and whatever signature fields it carries", async (t) => {
      const order = await signedOrder("USDC", "1200000");
      const ack = ackOf(await order.post());
      const register = (extra: Record<string, unknown> = {}) =>
        stack.api("POST", "/v1/order", {
          subject: order.subject,
          json: {
            quoteId: order.winner.quoteId,
            artifactHash: order.winner.disclosure.signableHash,
            ...extra,
          },
        });
      const expected = { orderId: ack.hubOrderId, quoteId: ack.quoteId, createdAt: ack.submittedAt };
      const answer = await register();
      assert.equal(answer.envelope.success, true, answer.text);
      assert.deepEqual(orderCreateAckSchema.parse(answer.envelope.data), expected);
      const partial = await register({ signature: "0x1234" });
      assert.deepEqual(orderCreateAckSchema.parse(partial.envelope.data), expected);
      stack.clock.skewMs = Date.parse(order.winner.expiresAt) - Date.now() + 1000;
      t.after(() => {
        stack.clock.skewMs = 0;
      });
      const late = await register();
      assert.deepEqual(orderCreateAckSchema.parse(late.envelope.data), expected);
      const lateOpenFor = await order.post();
      assert.deepEqual(ackOf(lateOpenFor), ack, "a re-post after expiry still gets the ack");
    });

    test("POST /order for a fresh OIF-lane quote is EIN0007 at re-approval; an unknown quote is EIN0010", async () => {
      const subject = freshSubject();
      const winner = await quoteFor(stack, eip3009User, subject, "USDC", "1000000");
      const fresh = await stack.api("POST", "/v1/order", {
        subject,
        json: { quoteId: winner.quoteId, artifactHash: winner.disclosure.signableHash },
      });
      assert.equal(codeOf(fresh), "EIN0007");
      const unknown = await stack.api("POST", "/v1/order", {
        subject,
        json: { quoteId: "q_r1_nosuchquote", artifactHash: winner.disclosure.signableHash },
      });
      assert.equal(codeOf(unknown), "EIN0010");
      const otherSubject = await stack.api("POST", "/v1/order", {
        subject: freshSubject(),
        json: { quoteId: winner.quoteId, artifactHash: winner.disclosure.signableHash },
      });
      assert.equal(codeOf(otherSubject), "EIN0010", "another subject's quote reads as unknown");
    });

    test("past expiresAt with no order: POST /order/openfor is EIN0005 with nothing reserved, POST /order EIN0005", async (t) => {
      const order = await signedOrder("USDC", "1250000");
      stack.clock.skewMs = Date.parse(order.winner.expiresAt) - Date.now();
      t.after(() => {
        stack.clock.skewMs = 0;
      });
      assert.equal(codeOf(await order.post()), "EIN0005");
      assert.equal(await reservationState(order.winner), undefined);
      const register = await stack.api("POST", "/v1/order", {
        subject: order.subject,
        json: { quoteId: order.winner.quoteId, artifactHash: order.winner.disclosure.signableHash },
      });
      assert.equal(codeOf(register), "EIN0005");
    });

    test("the quote's own checks come first and reserve nothing: unknown or foreign quote and wrong quoteRequestId are EIN0001, a signature in the wrong form EIN0001 signature", async () => {
      const order = await signedOrder("TKN");
      const post = (json: unknown, subject = order.subject) =>
        stack.api("POST", "/v1/order/openfor", { subject, json });
      const refusal = async (json: unknown, reference: string, subject?: string) => {
        const answer = await post(json, subject);
        assert.equal(codeOf(answer), "EIN0001");
        assert.equal(answer.envelope.errors![0]!.error_reference, reference);
      };
      await refusal({ ...order.body, quoteId: "q_r1_nosuchquote" }, "quoteId");
      await refusal(order.body, "quoteId", freshSubject());
      await refusal({ ...order.body, quoteRequestId: "qr_r1_another" }, "quoteRequestId");
      await refusal({ ...order.body, signature: `0x${order.body.signature.slice(4)}` }, "signature");
      await refusal({ quoteRequestId: order.body.quoteRequestId, quoteId: order.body.quoteId }, "signature");
      assert.equal(await reservationState(order.winner), undefined);
      ackOf(await order.post());
    });

    test("a solver refusal is EIN0021 with nothing opened; a re-post then answers EIN0050, then EIN0052 (rule 7)", async (t) => {
      const order = await signedOrder("USDC", "1100000");
      await setSolverKnobs({ refuseOrders: true });
      t.after(() => setSolverKnobs({ refuseOrders: false }));
      assert.equal(codeOf(await order.post()), "EIN0021");
      assert.equal(await reservationState(order.winner), "refused");
      assert.equal(codeOf(await order.post()), "EIN0050");
      assert.equal(await reservationState(order.winner), "unknown");
      assert.equal(codeOf(await order.post()), "EIN0052");
      assert.equal(codeOf(await order.post()), "EIN0052");
      assert.equal((await openEvents(order.winner.onchainOrderId!)).length, 0);
    });

    test("an upstream 429 is EIN0081 and keeps the reservation: the next re-post is EIN0052", async (t) => {
      const order = await signedOrder("USDC", "1300000");
      await setSolverKnobs({ rateLimited: true });
      t.after(() => setSolverKnobs({ rateLimited: false }));
      assert.equal(codeOf(await order.post()), "EIN0081");
      assert.equal(codeOf(await order.post()), "EIN0052");
    });

    test("an upstream reset after the request was sent is EIN0050 and keeps the reservation (EIN0052 after)", async (t) => {
      const order = await signedOrder("USDC", "1400000");
      await devnet.control("POST", "/aggregator/faults", { down: true });
      t.after(() => devnet.control("DELETE", "/aggregator/faults"));
      assert.equal(codeOf(await order.post()), "EIN0050");
      assert.equal(codeOf(await order.post()), "EIN0052");
    });

    test("an upstream that refuses connections is EIN0050 with nothing reserved for good; a re-post after it recovers is acked", async (t) => {
      const order = await signedOrder("USDC", "1600000");
      await stack.proxy.goDown();
      t.after(async () => {
        if (!stack.proxy.url) return;
        await stack.proxy.comeBack().catch(() => {});
      });
      assert.equal(codeOf(await order.post()), "EIN0050");
      assert.equal(await reservationState(order.winner), "released");
      await stack.proxy.comeBack();
      const ack = ackOf(await order.post());
      assert.equal(ack.orderId, order.winner.onchainOrderId);
    });

    test("a forward that hangs is cut by the gateway (EPX0052): the read answers EIN0009 and every re-post EIN0052 until reconcile --not-opened, then a re-post goes through", async (t) => {
      const order = await signedOrder("USDC", "1700000");
      await devnet.control("POST", "/aggregator/faults", { hang: true });
      t.after(() => devnet.control("DELETE", "/aggregator/faults"));
      const cut = await order.post();
      assert.equal(cut.status, 504);
      assert.equal(codeOf(cut), "EPX0052");
      const hubOrderId = hubOrderIdOf(order.winner);
      await pollUntil(
        "the cut forward is recorded unknown",
        async () => ((await reservationState(order.winner)) === "unknown" ? true : undefined),
        { timeoutMs: 30_000, intervalMs: 100 },
      );
      const read = await stack.api("GET", `/v1/order/${hubOrderId}/status`, { subject: order.subject });
      assert.equal(codeOf(read), "EIN0009");
      for (let i = 0; i < 3; i += 1) assert.equal(codeOf(await order.post()), "EIN0052");

      const listed = await stack.admin.listReservations({ state: "unknown" });
      assert.ok(listed.reservations.some((r) => r.hubOrderId === hubOrderId));
      await devnet.control("DELETE", "/aggregator/faults");
      const reconciled = await stack.admin.reconcileReservation({
        hubOrderId,
        opened: false,
        note: "test: not opened",
      });
      assert.equal(reconciled.reservation.state, "released");
      const ack = ackOf(await order.post());
      assert.equal(ack.orderId, order.winner.onchainOrderId);
      assert.equal(ack.hubOrderId, hubOrderId);
    });
  });
}
