import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createTestDatabases, type TestDatabase } from "@hub/store";
import { type ChainBlock, getChainFacts, type OrderLog } from "../src/reconciler/index.js";
import type { MandateOutputRecord, StandardOrderRecord } from "../src/status-rules/index.js";
import {
  type ChainFactsStore,
  createChainFactsStore,
  type IndexedRange,
  WatermarkConflictError,
} from "../src/store/chain-facts-store.js";
import { countOpens, setWatermarkBlock } from "./store/chain-facts-rows.js";

const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
after(() => databases.dispose());

const hex = (byte: string, bytes: number) => `0x${byte.repeat(bytes)}`;
const hash = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;
const origin = { chainDomain: "eip155:31337", chainId: 31337 };
const destination = { chainDomain: "eip155:31338", chainId: 31338 };
const lease = { name: "reconciler", holder: "rec_a" };
const fillDeadline = 1_900_000_000;

const output: MandateOutputRecord = {
  oracle: hex("11", 32),
  settler: hex("22", 32),
  chainId: "31338",
  token: hex("33", 32),
  amount: "5000000",
  recipient: hex("44", 32),
  callbackData: "0x",
  context: "0x",
};

function order(nonce: string): StandardOrderRecord {
  return {
    user: hex("66", 20),
    nonce,
    originChainId: "31337",
    expires: fillDeadline + 600,
    fillDeadline,
    inputOracle: hex("77", 20),
    inputs: [["1234", "5000000"]],
    outputs: [output],
  };
}

function block(number: number, timestamp: number): ChainBlock {
  return { number, hash: hash(number), timestamp };
}

function openLog(orderId: string, blockNumber: number, logIndex = 0): OrderLog {
  return {
    kind: "open",
    blockNumber,
    blockHash: hash(blockNumber),
    txHash: hash(blockNumber + 1000),
    logIndex,
    settler: hex("55", 20),
    onchainOrderId: orderId,
    order: order(orderId.slice(-4)),
  };
}

function fillLog(orderId: string, blockNumber: number): OrderLog {
  return {
    kind: "output-filled",
    blockNumber,
    blockHash: hash(blockNumber),
    txHash: hash(blockNumber + 2000),
    logIndex: 0,
    settler: hex("22", 20),
    onchainOrderId: orderId,
    solver: hex("88", 32),
    timestamp: fillDeadline - 100,
    output,
    finalAmount: output.amount,
  };
}

function range(parts: Partial<IndexedRange> & Pick<IndexedRange, "toBlock" | "logs">): IndexedRange {
  return {
    ...origin,
    expectedLastBlock: null,
    blockTimestamps: new Map(parts.logs.map((log) => [log.blockNumber, fillDeadline - 200])),
    observedAt: new Date("2026-01-01T00:00:00.000Z"),
    lease,
    ...parts,
  };
}

for (const { driver, skip } of databases.drivers) {
  describe(`reconciler store on ${driver}`, { skip }, () => {
    let db: TestDatabase;
    let store: ChainFactsStore;
    before(async () => {
      db = await databases.open(driver);
      store = createChainFactsStore(db.sql);
    });
    after(() => db?.dispose());

    test("only one holder has the lease; it passes on release and on expiry", async () => {
      const name = `lease-${driver}`;
      assert.equal(await store.acquireReconcilerLease({ name, holder: "a", ttlMs: 60_000 }), true);
      assert.equal(await store.acquireReconcilerLease({ name, holder: "b", ttlMs: 60_000 }), false);
      assert.equal(await store.acquireReconcilerLease({ name, holder: "a", ttlMs: 60_000 }), true);
      await store.releaseReconcilerLease({ name, holder: "b" });
      assert.equal(await store.getReconcilerLeaseHolder(name), "a");
      await store.releaseReconcilerLease({ name, holder: "a" });
      assert.equal(await store.acquireReconcilerLease({ name, holder: "b", ttlMs: 50 }), true);
      const deadline = Date.now() + 5000;
      let taken = false;
      while (!taken && Date.now() < deadline)
        taken = await store.acquireReconcilerLease({
          name,
          holder: "a",
          ttlMs: 60_000,
        });
      assert.equal(taken, true, "an expired lease is taken over");
      assert.equal(await store.getReconcilerLeaseHolder(name), "a");
    });

    test("concurrent lease attempts by many holders elect exactly one", async () => {
      const name = `race-${driver}`;
      const holders = Array.from({ length: 8 }, (_, i) => `h${i}`);
      const won = await Promise.all(
        holders.map((holder) => store.acquireReconcilerLease({ name, holder, ttlMs: 60_000 })),
      );
      assert.equal(won.filter(Boolean).length, 1);
    });

    test("a range's facts and its watermark commit together; re-running the range writes nothing", async () => {
      await store.acquireReconcilerLease({ ...lease, ttlMs: 60_000 });
      const id = hash(0xa1);
      const first = range({ toBlock: block(10, fillDeadline - 200), logs: [openLog(id, 10)] });
      assert.equal(await store.writeIndexedRange(first), 1);
      const watermark = await store.getWatermark(origin.chainDomain);
      assert.equal(watermark?.lastBlock, 10);
      assert.equal(watermark?.lastBlockHash, hash(10));

      await assert.rejects(store.writeIndexedRange(first), WatermarkConflictError);
      await setWatermarkBlock(db.sql, origin.chainDomain, 9);
      assert.equal(await store.writeIndexedRange({ ...first, expectedLastBlock: 9 }), 0);
      assert.equal(await countOpens(db.sql, id), 1);
    });

    test("a writer without the lease commits neither facts nor watermark", async () => {
      const id = hash(0xa2);
      const stranger = range({
        expectedLastBlock: 10,
        toBlock: block(20, fillDeadline - 150),
        logs: [openLog(id, 20)],
        lease: { name: lease.name, holder: "rec_b" },
      });
      await assert.rejects(store.writeIndexedRange(stranger), WatermarkConflictError);
      assert.equal((await store.getWatermark(origin.chainDomain))?.lastBlock, 10);
      assert.equal(await getChainFacts(db.sql, id), undefined);
    });

    test("a second Open for one order id fails the whole range loudly and moves no watermark", async () => {
      const id = hash(0xa1);
      const anomaly = range({
        expectedLastBlock: 10,
        toBlock: block(21, fillDeadline - 150),
        logs: [openLog(id, 21)],
      });
      await assert.rejects(store.writeIndexedRange(anomaly));
      assert.equal((await store.getWatermark(origin.chainDomain))?.lastBlock, 10);
    });

    test("getChainFacts derives OPEN, then FILLED from the destination's fill, with deadlines from the order", async () => {
      const id = hash(0xa1);
      assert.equal((await getChainFacts(db.sql, id))?.status, "OPEN");
      await store.writeIndexedRange({
        ...range({ toBlock: block(50, fillDeadline - 100), logs: [fillLog(id, 50)] }),
        ...destination,
      });
      const view = await getChainFacts(db.sql, id);
      assert.equal(view?.status, "FILLED");
      assert.equal(view?.filled, true);
      assert.equal(view?.fills.length, 1);
      assert.equal(view?.fillDeadline, new Date(fillDeadline * 1000).toISOString());
      assert.equal(view?.order?.outputs[0]?.amount, "5000000");
    });

    test("an order whose destination is indexed past fillDeadline without a fill is EXPIRED", async () => {
      await store.acquireReconcilerLease({ ...lease, ttlMs: 60_000 });
      const id = hash(0xa3);
      await store.writeIndexedRange(
        range({ expectedLastBlock: 10, toBlock: block(30, fillDeadline - 90), logs: [openLog(id, 30)] }),
      );
      assert.equal((await getChainFacts(db.sql, id))?.status, "OPEN");
      await store.writeIndexedRange({
        ...range({ expectedLastBlock: 50, toBlock: block(60, fillDeadline + 1), logs: [] }),
        ...destination,
      });
      assert.equal((await getChainFacts(db.sql, id))?.status, "EXPIRED");
    });

    test("an uppercase or 0x-less on-chain id finds no chain object", async () => {
      const id = hash(0xa1);
      assert.equal(await getChainFacts(db.sql, id.toUpperCase().replace("0X", "0x")), undefined);
      assert.equal(await getChainFacts(db.sql, id.slice(2)), undefined);
    });

    test("a chain domain is matched case-sensitively and an unknown one has no watermark", async () => {
      assert.equal(await store.getWatermark("EIP155:31337"), undefined);
      assert.equal(await store.getWatermark("eip155:1"), undefined);
    });
  });
}
