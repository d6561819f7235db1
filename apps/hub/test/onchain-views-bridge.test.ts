import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, before, describe, test } from "node:test";
import {
  type OnchainFill,
  type OnchainRefund,
  type OnchainTxOrder,
  onchainFillSchema,
  onchainRefundSchema,
  onchainTxOrderSchema,
} from "@hub/contract";
import { createTestDatabases, type TestDatabase } from "@hub/store";
import type { z } from "zod";
import type { HubApp } from "../src/index.js";
import { call, createTestHubApp, envelopeOf } from "./hub-fixture.js";
import { BRIDGE, h32, RECIPIENT, seedDeposit, seedRelease, T } from "./store/bridge-log-seed.js";
import {
  DESTINATION_DOMAIN,
  SOURCE_DOMAIN,
  seedChainFacts,
  setWatermark,
  standardOrder,
} from "./store/onchain-views-seed.js";

const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
let db: TestDatabase;
let hub: HubApp;
const OTHER_DOMAIN = "eip155:31339";
const padded = (address: string) => `0x${address.slice(2).padStart(64, "0")}`;

async function read<S extends z.ZodType>(schema: S, url: string): Promise<z.output<S>> {
  const answer = await call(hub, "GET", url);
  const envelope = envelopeOf(answer);
  assert.equal(envelope.success, true, answer.body.toString());
  return schema.parse(envelope.data);
}

before(async () => {
  db = await databases.open(process.env.DATABASE_URL ? "postgres" : "pglite");
  hub = createTestHubApp({
    sql: db.sql,
  });
  await setWatermark(db.sql, SOURCE_DOMAIN, 31337, 100, T + 100);
  await setWatermark(db.sql, DESTINATION_DOMAIN, 31338, 100, T + 100);
  await setWatermark(db.sql, OTHER_DOMAIN, 31339, 100, T + 100);
});

after(async () => {
  await hub.close();
  await db.dispose();
  await databases.dispose();
});

describe("on-chain views of open-flow bridge transfers", () => {
  test("a deposit transaction resolves to its depositId with event deposit, the release transaction to the same id with event release", async () => {
    const depositId = h32("by-tx");
    const depositTx = await seedDeposit(db.sql, depositId, 20);
    const releaseTx = await seedRelease(db.sql, depositId, 21);
    const byDeposit: OnchainTxOrder = await read(
      onchainTxOrderSchema,
      `/v1/onchain/tx/${SOURCE_DOMAIN}/${depositTx}/order`,
    );
    assert.deepEqual([byDeposit.orderId, byDeposit.event], [depositId, "deposit"]);
    const byRelease = await read(
      onchainTxOrderSchema,
      `/v1/onchain/tx/${DESTINATION_DOMAIN}/${releaseTx}/order`,
    );
    assert.deepEqual([byRelease.orderId, byRelease.event], [depositId, "release"]);
    const elsewhere = await read(
      onchainTxOrderSchema,
      `/v1/onchain/tx/${DESTINATION_DOMAIN}/${depositTx}/order`,
    );
    assert.deepEqual(
      [elsewhere.orderId, elsewhere.event],
      [null, null],
      "a hash is looked up on its own chain",
    );
  });

  test("the fill view of a depositId is OPEN after the deposit, then filled, settled and SETTLED once the release is observed, with both chains' watermarks", async () => {
    const depositId = h32("fill");
    const depositTx = await seedDeposit(db.sql, depositId, 30);
    const open: OnchainFill = await read(onchainFillSchema, `/v1/onchain/${depositId}/fill`);
    assert.deepEqual(
      { filled: open.filled, settled: open.settled, status: open.status, fills: open.fills },
      { filled: false, settled: false, status: "OPEN", fills: [] },
    );
    assert.equal(open.openTx?.txHash, depositTx);
    assert.equal(open.openTx?.chainDomain, SOURCE_DOMAIN);
    assert.equal(open.settledTx, undefined);
    assert.deepEqual(open.watermarks.map((w) => w.chainDomain).sort(), [SOURCE_DOMAIN, DESTINATION_DOMAIN]);

    const releaseTx = await seedRelease(db.sql, depositId, 31);
    const settled = await read(onchainFillSchema, `/v1/onchain/${depositId}/fill`);
    assert.deepEqual([settled.filled, settled.settled, settled.status], [true, true, "SETTLED"]);
    assert.equal(settled.openTx?.txHash, depositTx);
    assert.equal(
      settled.settledTx?.txHash,
      releaseTx,
      "the release is the settlement: the bridge has no later step",
    );
    assert.equal(settled.fills.length, 1);
    const [release] = settled.fills;
    assert.deepEqual(
      {
        chainDomain: release?.chainDomain,
        txHash: release?.txHash,
        amount: release?.amount,
        recipient: release?.recipient,
        solver: release?.solver,
        outputIndex: release?.outputIndex,
        inTime: release?.inTime,
        at: release?.at,
      },
      {
        chainDomain: DESTINATION_DOMAIN,
        txHash: releaseTx,
        amount: "2490000",
        recipient: padded(RECIPIENT),
        solver: padded(BRIDGE),
        outputIndex: 0,
        inTime: true,
        at: new Date((T + 31) * 1000).toISOString(),
      },
    );
    assert.deepEqual(settled.watermarks.map((w) => w.chainDomain).sort(), [
      SOURCE_DOMAIN,
      DESTINATION_DOMAIN,
    ]);
  });

  test("a release on a chain other than the deposit's destination is not the transfer's; a release seen before its deposit already reads SETTLED", async () => {
    const depositId = h32("stray-release");
    await seedDeposit(db.sql, depositId, 40);
    await seedRelease(db.sql, depositId, 41, OTHER_DOMAIN);
    const stray = await read(onchainFillSchema, `/v1/onchain/${depositId}/fill`);
    assert.deepEqual([stray.status, stray.settled, stray.fills.length], ["OPEN", false, 0]);

    const early = h32("release-first");
    await seedRelease(db.sql, early, 42);
    const fill = await read(onchainFillSchema, `/v1/onchain/${early}/fill`);
    assert.deepEqual([fill.status, fill.filled, fill.settled], ["SETTLED", true, true]);
    assert.equal(fill.openTx, undefined);
    assert.deepEqual(
      [fill.fills[0]?.outputIndex, fill.fills[0]?.inTime],
      [null, false],
      "no deposit to match yet",
    );
    assert.deepEqual(
      fill.watermarks.map((w) => w.chainDomain),
      [DESTINATION_DOMAIN],
    );
  });

  test("the refund view of a depositId is not refundable with reason no-refund, before and after the release; an unknown id stays unknown-order", async () => {
    const depositId = h32("refund");
    await seedDeposit(db.sql, depositId, 50);
    const deposited: OnchainRefund = await read(onchainRefundSchema, `/v1/onchain/${depositId}/refund`);
    assert.deepEqual(deposited, { orderId: depositId, refundable: false, reason: "no-refund" });
    const onSource = await read(
      onchainRefundSchema,
      `/v1/onchain/${depositId}/refund?chainDomain=${SOURCE_DOMAIN}`,
    );
    assert.equal(onSource.reason, "no-refund");
    const onDestination = await read(
      onchainRefundSchema,
      `/v1/onchain/${depositId}/refund?chainDomain=${DESTINATION_DOMAIN}`,
    );
    assert.equal(onDestination.reason, "unknown-order", "chainDomain names the source chain");
    await seedRelease(db.sql, depositId, 51);
    const released = await read(onchainRefundSchema, `/v1/onchain/${depositId}/refund`);
    assert.deepEqual([released.refundable, released.reason], [false, "no-refund"]);
    const unknown = await read(onchainRefundSchema, `/v1/onchain/${h32("never")}/refund`);
    assert.deepEqual(unknown, { orderId: h32("never"), refundable: false, reason: "unknown-order" });
    const unknownFill = await read(onchainFillSchema, `/v1/onchain/${h32("never")}/fill`);
    assert.deepEqual(unknownFill, {
      orderId: h32("never"),
      filled: false,
      settled: false,
      status: null,
      fills: [],
      watermarks: [],
    });
  });

  test("an escrow order reads as before beside bridge rows: its Open is event open, its fill view and refund reasons are the escrow's", async () => {
    const orderId = h32("escrow");
    const { openTx } = await seedChainFacts(db.sql, orderId, standardOrder(T + 600, T + 300), { fill: true });
    await seedDeposit(db.sql, h32("escrow-neighbour"), 60);
    const byTx = await read(onchainTxOrderSchema, `/v1/onchain/tx/${SOURCE_DOMAIN}/${openTx}/order`);
    assert.deepEqual([byTx.orderId, byTx.event], [orderId, "open"]);
    const fill = await read(onchainFillSchema, `/v1/onchain/${orderId}/fill`);
    assert.deepEqual([fill.status, fill.filled, fill.settled], ["FILLED", true, false]);
    assert.equal(fill.fills[0]?.solver, `0x${createHash("sha256").update("solver").digest("hex")}`);
    const refund = await read(onchainRefundSchema, `/v1/onchain/${orderId}/refund`);
    assert.deepEqual([refund.refundable, refund.reason], [false, "not-expired"]);
  });
});
