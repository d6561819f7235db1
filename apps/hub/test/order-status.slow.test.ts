import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { systemClock } from "@hub/clock";
import {
  type OnchainFill,
  type OnchainRefund,
  type OpenForAck,
  type OrdersList,
  openForAckSchema,
  type UpstreamOrderStatus,
} from "@hub/contract";
import { pollUntil } from "@hub/test-support";
import { pino } from "pino";
import type { Hex } from "viem";
import { createReconciler, type Reconciler } from "../src/reconciler/create-reconciler.js";
import { reconcilerChainsFromManifest } from "../src/reconciler/reconciler-chains-from-manifest.js";
import { createSubmissionStore } from "../src/store/submission-store.js";
import { devnetAggregatorPaths, oifDialects, oifDialectTables } from "../src/providers/index.js";
import { startProviderStandIn } from "./fixtures/provider-stand-in.js";
import { call, createTestHubApp, envelopeOf } from "./hub-fixture.js";
import {
  approvePermit2,
  disposeSubmissionDatabases,
  postSignedOpenFor,
  quoteFor,
  type SubmissionStack,
  startSubmissionStack,
  type User,
} from "./submission-stack.js";
import { type HubTestDevnet, startHubTestDevnet } from "./upstream-devnet.js";

for (const dialect of oifDialects) {
  describe(`status views on the devnet, through the gateway (upstream dialect ${dialect})`, () => {
    let devnet: HubTestDevnet;
    let stack: SubmissionStack;
    let reconciler: Reconciler;
    let user: User;
    let subjects = 0;

    before(async () => {
      devnet = await startHubTestDevnet();
      stack = await startSubmissionStack(devnet, {
        gatewayTimeoutMs: 5000,
        providerTimeoutMs: 5000,
        dialect,
      });
      reconciler = createReconciler({
        sql: stack.db.sql,
        chains: reconcilerChainsFromManifest(devnet.manifest),
        clock: systemClock,
        logger: pino({ level: "silent" }),
        pollIntervalMs: 200,
      });
      reconciler.start();
      user = devnet.manifest.users[1]!;
      await approvePermit2(stack, user, "TKN");
    });

    after(async () => {
      await reconciler?.stop();
      await stack?.stop();
      await devnet?.stop();
      await disposeSubmissionDatabases();
    });

    async function openOrder(
      lane: "oif-escrow-gasless" | "aggregator-gasless" = "oif-escrow-gasless",
    ): Promise<{ ack: OpenForAck; subject: string }> {
      const subject = `follower-${++subjects}`;
      // TKN declares Permit2 only; USDC declares EIP-3009, which the round prefers on equal terms.
      const winner =
        lane === "oif-escrow-gasless"
          ? await quoteFor(stack, user, subject, "TKN", "1000000000000000000")
          : await quoteFor(stack, user, subject, "USDC", "2000000");
      assert.equal(winner.lane, lane);
      const answer = await postSignedOpenFor(stack, user, subject, winner);
      assert.equal(answer.envelope.success, true, answer.text);
      return { ack: openForAckSchema.parse(answer.envelope.data), subject };
    }

    async function status(ack: OpenForAck, subject: string): Promise<UpstreamOrderStatus> {
      const answer = await stack.api("GET", `/v1/order/${ack.hubOrderId}/status`, { subject });
      assert.equal(answer.envelope.success, true, answer.text);
      return answer.envelope.data as UpstreamOrderStatus;
    }

    async function fill(ack: OpenForAck): Promise<OnchainFill> {
      const answer = await stack.api("GET", `/v1/onchain/${ack.orderId}/fill`);
      assert.equal(answer.envelope.success, true, answer.text);
      return answer.envelope.data as OnchainFill;
    }

    for (const [lane, name] of [
      ["oif-escrow-gasless", "a Permit2 order"],
      ["aggregator-gasless", "an EIP-3009 order"],
    ] as const)
      test(`${name} walks to finalized with history, its list entry reaches SETTLED and the fill view reports filled and settled`, async () => {
        const { ack, subject } = await openOrder(lane);
        const finalized = await pollUntil(
          "the status read reaches finalized",
          async () => {
            const read = await status(ack, subject);
            return read.state === "finalized" ? read : undefined;
          },
          { timeoutMs: 60_000, intervalMs: 500 },
        );
        assert.equal(finalized.history[0]?.state, "created");
        assert.equal(finalized.history.at(-1)?.state, "finalized");
        assert.equal(finalized.onchainOrderId, ack.orderId);
        const settled = await pollUntil(
          "the fill view reports settled",
          async () => {
            const read = await fill(ack);
            return read.settled ? read : undefined;
          },
          { timeoutMs: 60_000, intervalMs: 250 },
        );
        assert.equal(settled.filled, true);
        const answer = await stack.api("GET", "/v1/orders", { subject });
        assert.equal(answer.envelope.success, true, answer.text);
        const listed = answer.envelope.data as OrdersList;
        assert.equal(listed.subject, subject);
        assert.equal(listed.orders[0]?.orderId, ack.hubOrderId);
        assert.equal(listed.orders[0]?.chain?.status, "SETTLED");
      });

    test("with the solver stalled after executed, the status stays executed with upstreamStale false while the fill view shows settled", async (t) => {
      for (const solver of ["alpha", "beta"]) {
        await devnet.control("POST", `/solvers/${solver}/faults`, { stallAfterExecuted: true });
      }
      t.after(async () => {
        for (const solver of ["alpha", "beta"]) await devnet.control("DELETE", `/solvers/${solver}/faults`);
      });
      const { ack, subject } = await openOrder();
      await pollUntil(
        "the fill view reports settled",
        async () => ((await fill(ack)).settled ? true : undefined),
        { timeoutMs: 60_000, intervalMs: 250 },
      );
      const read = await pollUntil(
        "the status read reaches executed",
        async () => {
          const current = await status(ack, subject);
          return current.state === "executed" ? current : undefined;
        },
        { timeoutMs: 30_000, intervalMs: 500 },
      );
      assert.equal(read.upstreamStale, false);
      assert.equal(read.fillTransaction, undefined);
    });

    async function setSolverKnobs(knobs: Record<string, unknown> | undefined): Promise<void> {
      for (const solver of ["alpha", "beta"]) {
        if (knobs) await devnet.control("POST", `/solvers/${solver}/faults`, knobs);
        else await devnet.control("DELETE", `/solvers/${solver}/faults`);
      }
    }

    async function executedOrder(): Promise<{ ack: OpenForAck; subject: string }> {
      const opened = await openOrder();
      await pollUntil(
        "the status read reaches executed",
        async () => ((await status(opened.ack, opened.subject)).state === "executed" ? true : undefined),
        { timeoutMs: 30_000, intervalMs: 500 },
      );
      return opened;
    }

    test("a backwards upstream report is refused: rejectedUpstreamTransition with the previous state kept", async (t) => {
      await setSolverKnobs({ stallAfterExecuted: true });
      t.after(() => setSolverKnobs(undefined));
      const { ack, subject } = await executedOrder();
      await setSolverKnobs({ reportOnce: "backwards" });
      const refused = await pollUntil(
        "a refused report is flagged",
        async () => {
          const read = await status(ack, subject);
          return read.rejectedUpstreamTransition ? read : undefined;
        },
        { timeoutMs: 10_000, intervalMs: 500 },
      );
      assert.equal(refused.state, "executed");
      assert.equal(refused.upstreamStale, true);
    });

    test("with the aggregator down the last good state is served with upstreamStale true", async (t) => {
      await setSolverKnobs({ stallAfterExecuted: true });
      t.after(() => setSolverKnobs(undefined));
      const { ack, subject } = await executedOrder();
      await devnet.control("POST", "/aggregator/faults", { down: true });
      t.after(() => devnet.control("DELETE", "/aggregator/faults"));
      const stale = await pollUntil(
        "the read is marked stale",
        async () => {
          const read = await status(ack, subject);
          return read.upstreamStale ? read : undefined;
        },
        { timeoutMs: 10_000, intervalMs: 500 },
      );
      assert.equal(stale.state, "executed");
      assert.equal(stale.rejectedUpstreamTransition, false);
    });

    test("an order past its deadline with no fill reads EXPIRED, then REFUNDED once the user sends the refund step", async (t) => {
      await setSolverKnobs({ failAt: "Fill" });
      t.after(() => setSolverKnobs(undefined));
      const { ack, subject } = await openOrder();
      const entry = async () => {
        const answer = await stack.api("GET", "/v1/orders", { subject });
        assert.equal(answer.envelope.success, true, answer.text);
        return (answer.envelope.data as OrdersList).orders[0];
      };
      await pollUntil(
        "the Open is indexed",
        async () => ((await entry())?.chain?.status === "OPEN" ? true : undefined),
        { timeoutMs: 30_000, intervalMs: 250 },
      );
      for (const chain of devnet.manifest.chains) {
        await devnet.control("POST", `/chains/${chain.chainId}/increase-time`, { seconds: 86_400 });
      }
      await pollUntil(
        "the entry reads EXPIRED",
        async () => ((await entry())?.chain?.status === "EXPIRED" ? true : undefined),
        { timeoutMs: 30_000, intervalMs: 250 },
      );
      const refund = await pollUntil(
        "the refund view offers the step",
        async () => {
          const answer = await stack.api("GET", `/v1/onchain/${ack.orderId}/refund`);
          assert.equal(answer.envelope.success, true, answer.text);
          const data = answer.envelope.data as OnchainRefund;
          return data.refundable ? data : undefined;
        },
        { timeoutMs: 30_000, intervalMs: 250 },
      );
      assert.ok(refund.step && "chainId" in refund.step, "an EVM escrow's refund is a transaction to send");
      const client = stack.chains.get(refund.step.chainId);
      const hash = await client.wallet(user).sendTransaction({
        to: refund.step.to as Hex,
        data: refund.step.data as Hex,
        value: BigInt(refund.step.value),
      });
      await client.publicClient.waitForTransactionReceipt({ hash });
      const refunded = await pollUntil(
        "the entry reads REFUNDED",
        async () => {
          const current = await entry();
          return current?.chain?.status === "REFUNDED" ? current : undefined;
        },
        { timeoutMs: 30_000, intervalMs: 250 },
      );
      assert.ok(refunded.chain?.refundedTx);
    });

    test("10 concurrent pollers of one order cause at most one aggregator read per 2 s", async (t) => {
      await setSolverKnobs({ stallAfterExecuted: true });
      t.after(() => setSolverKnobs(undefined));
      const { ack, subject } = await executedOrder();
      const standIn = await startProviderStandIn(`${devnet.url}${devnetAggregatorPaths[dialect]}`);
      const replica = createTestHubApp({
        catalog: devnet.catalog,
        replicaId: "r2",
        sql: stack.db.sql,
        providers: [{ id: "devnet", kind: "oif-aggregator", dialect, baseUrl: standIn.url, timeoutMs: 5000 }],
      });
      t.after(async () => {
        await replica.close();
        await standIn.close();
      });
      const organization = (await createSubmissionStore(stack.db.sql).find(ack.hubOrderId))?.orgId as string;
      const pollMs = 6000;
      const started = Date.now();
      await Promise.all(
        Array.from({ length: 10 }, async () => {
          while (Date.now() - started < pollMs) {
            const answer = await call(replica, "GET", `/v1/order/${ack.hubOrderId}/status`, {
              headers: { "x-service-org": organization, "x-service-subject": subject },
            });
            assert.equal(envelopeOf(answer).success, true, answer.body.toString());
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        }),
      );
      const windows = Math.ceil((Date.now() - started) / 2000);
      const ordersPath = `${oifDialectTables[dialect].pathPrefix}/orders/`;
      const reads = standIn.received.filter((path) => path.startsWith(ordersPath)).length;
      assert.ok(reads >= 1, "the order was refreshed from the aggregator");
      assert.ok(reads <= windows, `${reads} aggregator reads in ${windows} windows of 2 s`);
    });
  });
}
