import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { inputSettlerEscrowAbi } from "@hub/chain";
import type { OnchainFill, OnchainOrder, OnchainRefund, OnchainTxOrder } from "@hub/contract";
import { createTestDatabases, type TestDatabase } from "@hub/store";
import { decodeFunctionData } from "viem";
import type { HubApp } from "../src/index.js";
import { assertRefusal, call, createTestHubApp, envelopeOf } from "./hub-fixture.js";
import {
  DESTINATION_DOMAIN,
  ESCROW,
  SOURCE_DOMAIN,
  seedChainFacts,
  setWatermark,
  standardOrder,
} from "./store/onchain-views-seed.js";

const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
let db: TestDatabase;
let hub: HubApp;
const T = 1_800_000_000;
const idOf = (name: string) => `0x${createHash("sha256").update(`onchain-views:${name}`).digest("hex")}`;

async function read<T>(url: string): Promise<T> {
  const answer = await call(hub, "GET", url);
  const envelope = envelopeOf(answer);
  assert.equal(envelope.success, true, answer.body.toString());
  return envelope.data as T;
}

before(async () => {
  db = await databases.open(process.env.DATABASE_URL ? "postgres" : "pglite");
  hub = createTestHubApp({
    sql: db.sql,
  });
  await setWatermark(db.sql, SOURCE_DOMAIN, 31337, 100, T);
  await setWatermark(db.sql, DESTINATION_DOMAIN, 31338, 100, T);
});

after(async () => {
  await hub.close();
  await db.dispose();
  await databases.dispose();
});

describe("on-chain views", () => {
  test("the fill view reports filled and settled from chain facts; an uppercase or unprefixed id reads as not filled", async () => {
    const id = idOf("settled");
    await seedChainFacts(db.sql, id, standardOrder(T + 600, T + 300), { fill: true, settle: true });
    const fill = await read<OnchainFill>(`/v1/onchain/${id}/fill`);
    assert.equal(fill.filled, true);
    assert.equal(fill.settled, true);
    assert.equal(fill.status, "SETTLED");
    assert.equal(fill.fills.length, 1);
    assert.equal(fill.fills[0]?.inTime, true);
    assert.ok(fill.openTx && fill.settledTx);
    assert.deepEqual(fill.watermarks.map((w) => w.chainDomain).sort(), [SOURCE_DOMAIN, DESTINATION_DOMAIN]);
    for (const other of [id.toUpperCase().replace("0X", "0x"), id.slice(2)]) {
      const unknown = await read<OnchainFill>(`/v1/onchain/${other}/fill`);
      assert.deepEqual(
        { filled: unknown.filled, settled: unknown.settled, status: unknown.status, fills: unknown.fills },
        { filled: false, settled: false, status: null, fills: [] },
      );
    }
  });

  test("a transaction resolves to the order its indexed Open log names; a domain without a watermark is EIN0051", async () => {
    const id = idOf("by-tx");
    const { openTx } = await seedChainFacts(db.sql, id, standardOrder(T + 600, T + 300), {});
    const found = await read<OnchainTxOrder>(`/v1/onchain/tx/${SOURCE_DOMAIN}/${openTx}/order`);
    assert.equal(found.orderId, id);
    assert.equal(found.event, "open");
    assert.equal(found.watermark.blockNumber, 100);
    const none = await read<OnchainTxOrder>(`/v1/onchain/tx/${SOURCE_DOMAIN}/0x${"11".repeat(32)}/order`);
    assert.equal(none.orderId, null);
    assertRefusal(await call(hub, "GET", `/v1/onchain/tx/eip155:999/${openTx}/order`), "EIN0051");
    assertRefusal(await call(hub, "GET", `/v1/onchain/tx/EIP155:31337/${openTx}/order`), "EIN0051");
  });

  test("the refund view gives the refund(order) step once chain time is past expires, and never for a settled order", async () => {
    const id = idOf("refund");
    const order = standardOrder(T + 60, T + 30);
    await seedChainFacts(db.sql, id, order, {});
    const early = await read<OnchainRefund>(`/v1/onchain/${id}/refund`);
    assert.deepEqual([early.refundable, early.reason], [false, "not-expired"]);
    await setWatermark(db.sql, SOURCE_DOMAIN, 31337, 200, T + 61);
    const due = await read<OnchainRefund>(`/v1/onchain/${id}/refund?chainDomain=${SOURCE_DOMAIN}`);
    assert.deepEqual([due.refundable, due.reason], [true, "refundable"]);
    assert.ok(due.step && "chainId" in due.step, "an EVM escrow's refund is a transaction to send");
    assert.deepEqual([due.step.chainId, due.step.to, due.step.value], [31337, ESCROW, "0"]);
    const decoded = decodeFunctionData({ abi: inputSettlerEscrowAbi, data: due.step.data as `0x${string}` });
    assert.equal(decoded.functionName, "refund");
    const elsewhere = await read<OnchainRefund>(`/v1/onchain/${id}/refund?chainDomain=${DESTINATION_DOMAIN}`);
    assert.equal(elsewhere.reason, "unknown-order");
    const settled = await read<OnchainRefund>(`/v1/onchain/${idOf("settled")}/refund`);
    assert.deepEqual([settled.refundable, settled.reason], [false, "settled"]);
    const unknown = await read<OnchainRefund>(`/v1/onchain/${idOf("never")}/refund`);
    assert.equal(unknown.reason, "unknown-order");
  });

  test("the raw order view returns the StandardOrder tuple as strings; an unknown id is EIN0009", async () => {
    const id = idOf("raw");
    const order = standardOrder(T + 600, T + 300);
    await seedChainFacts(db.sql, id, order, {});
    const raw = await read<OnchainOrder>(`/v1/onchain/${id}/order`);
    assert.equal(raw.settler, ESCROW);
    assert.equal(raw.order.expires, String(T + 600));
    assert.deepEqual(raw.order.inputs, [["970", "1000000"]]);
    assert.equal(raw.order.outputs[0]?.amount, "990000");
    assertRefusal(await call(hub, "GET", `/v1/onchain/${idOf("never")}/order`), "EIN0009");
  });
});
