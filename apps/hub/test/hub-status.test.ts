import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { type HubOrderStatus, hubOrderId, hubOrderStatusSchema, type OrderCreateAck } from "@hub/contract";
import { createMemoryCounters } from "@hub/counters";
import { createTestDatabases, type TestDatabase } from "@hub/store";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { HubApp } from "../src/index.js";
import { claimAndReadOpenFlowStatus } from "../src/open-flow/claim-and-read-open-flow-status.js";
import { createHubStatusReader } from "../src/open-flow/create-hub-status-reader.js";
import type { BridgeLog, ChainBlock } from "../src/reconciler/index.js";
import { createChainFactsStore } from "../src/store/chain-facts-store.js";
import { createOpenFlowStore } from "../src/store/open-flow-store.js";
import { assertRefusal, call, createTestHubApp, envelopeOf, manualClock } from "./hub-fixture.js";
import { type SeededQuote, seedOpenFlowQuote } from "./open-flow-order-seed.js";
import { countBridgeDeposits, setWatermarkBlock } from "./store/chain-facts-rows.js";
import { countDepositClaims, listDepositClaims, readDepositClaim } from "./store/open-flow-rows.js";
import { seedAckedOrders } from "./store/order-status-seed.js";

const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
const SUBJECT = "user-1";
const user = privateKeyToAccount(generatePrivateKey());
const lease = { name: "reconciler", holder: "rec_hub_status_test" };
const hash = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;

let db: TestDatabase;
const clock = manualClock();
let hub: HubApp;
let counter = 0;

/** Each test its own organization and its own pair of chains, so watermarks never leak between tests. */
function freshWorld() {
  counter += 1;
  const base = 900_000 + process.pid * 10 + counter * 2;
  return {
    org: `org_hs_${process.pid}_${counter}`,
    source: { chainDomain: `eip155:${base}`, chainId: base },
    destination: { chainDomain: `eip155:${base + 1}`, chainId: base + 1 },
  };
}

type World = ReturnType<typeof freshWorld>;

async function register(
  world: World,
  lane: "open-flow" | "solver-swap" = "open-flow",
  deposit?: Partial<NonNullable<SeededQuote["template"]["deposit"]>>,
) {
  const seeded = await seedOpenFlowQuote(db.sql, {
    organization: world.org,
    subject: SUBJECT,
    sourceAccount: user.address.toLowerCase() as `0x${string}`,
    issuedAt: new Date(clock.now()),
    lane,
    source: world.source,
    destination: world.destination,
    ...(deposit ? { deposit } : {}),
  });
  const answer = await call(hub, "POST", "/v1/order", {
    headers: { "x-service-org": world.org, "x-service-subject": SUBJECT },
    json: {
      quoteId: seeded.quoteId,
      artifactHash: seeded.template.signableHash,
      signature: await user.signMessage({ message: seeded.template.signIntent ?? "" }),
      signer: user.address,
      scheme: "eip191",
    },
  });
  const envelope = envelopeOf(answer);
  assert.equal(envelope.success, true, answer.body.toString());
  return { seeded, ack: envelope.data as OrderCreateAck };
}

function readStatus(orderId: string, org: string, subject?: string) {
  return call(hub, "GET", `/v1/status/${orderId}`, {
    headers: { "x-service-org": org, ...(subject ? { "x-service-subject": subject } : {}) },
  });
}

async function statusOf(orderId: string, org: string, subject?: string): Promise<HubOrderStatus> {
  const answer = await readStatus(orderId, org, subject);
  const envelope = envelopeOf(answer);
  assert.equal(envelope.success, true, answer.body.toString());
  return hubOrderStatusSchema.parse(envelope.data);
}

function block(number: number): ChainBlock {
  return { number, hash: hash(number), timestamp: 1_800_000_000 + number * 2 };
}

function depositLog(seeded: SeededQuote, blockNumber: number, overrides: Partial<BridgeLog> = {}): BridgeLog {
  const deposit = seeded.template.deposit;
  assert.ok(deposit);
  return {
    kind: "bridge-deposited",
    blockNumber,
    blockHash: hash(blockNumber),
    txHash: hash(0xd00000 + blockNumber),
    logIndex: 0,
    bridge: deposit.bridge,
    depositId: hash(0xde0000 + blockNumber),
    depositor: user.address.toLowerCase(),
    token: deposit.token,
    amount: deposit.amount,
    destinationChainId: String(deposit.destinationChainId),
    recipient: deposit.recipient,
    ref: deposit.ref,
    ...overrides,
  } as BridgeLog;
}

function releaseLog(depositId: string, blockNumber: number, overrides: Partial<BridgeLog> = {}): BridgeLog {
  return {
    kind: "bridge-released",
    blockNumber,
    blockHash: hash(blockNumber),
    txHash: hash(0xe00000 + blockNumber),
    logIndex: 1,
    bridge: "0x00000000000000000000000000000000000000b2",
    depositId,
    token: "0x00000000000000000000000000000000000000aa",
    recipient: "0x00000000000000000000000000000000000000bb",
    amount: "990000",
    ...overrides,
  } as BridgeLog;
}

/** Commits one range of a chain the way the reconciler does (watermark, facts, observation mark). */
async function index(
  chain: { chainDomain: string; chainId: number },
  from: number | null,
  to: number,
  logs: BridgeLog[],
  timestampOf: (blockNumber: number) => number = (n) => block(n).timestamp,
) {
  return createChainFactsStore(db.sql).writeIndexedRange({
    chainDomain: chain.chainDomain,
    chainId: chain.chainId,
    expectedLastBlock: from,
    toBlock: { ...block(to), timestamp: timestampOf(to) },
    logs,
    blockTimestamps: new Map([...logs.map((log) => log.blockNumber), to].map((n) => [n, timestampOf(n)])),
    observedAt: new Date(clock.now()),
    lease,
  });
}

before(async () => {
  db = await databases.open(process.env.DATABASE_URL ? "postgres" : "pglite");
  assert.ok(await createChainFactsStore(db.sql).acquireReconcilerLease({ ...lease, ttlMs: 3_600_000 }));
  hub = createTestHubApp({
    counters: createMemoryCounters({}, { clock }),
    clock,
    sql: db.sql,
    providers: [{ id: "ext", kind: "external-aggregator", baseUrl: "http://127.0.0.1:9" }],
  });
});

after(async () => {
  await hub.close();
  await db.dispose();
  await databases.dispose();
});

describe("GET /status/{orderId} (hub status view of an open-flow registration)", () => {
  test("walks registered → deposited (ref and terms on the source chain) → released (deposit id on the destination), final", async () => {
    const world = freshWorld();
    const { seeded, ack } = await register(world);
    const registered = await statusOf(ack.orderId, world.org);
    assert.deepEqual(registered, {
      orderId: ack.orderId,
      quoteId: seeded.quoteId,
      lane: "open-flow",
      state: "registered",
      final: false,
      watermarks: [],
      createdAt: ack.createdAt,
      updatedAt: ack.createdAt,
    });

    clock.advance(1000);
    const deposit = depositLog(seeded, 12);
    assert.equal(await index(world.source, null, 15, [deposit]), 1);
    assert.equal((await statusOf(ack.orderId, world.org)).state, "registered", "served from the 2 s cache");
    clock.advance(1000);
    const deposited = await statusOf(ack.orderId, world.org);
    assert.equal(deposited.state, "deposited");
    assert.equal(deposited.final, false);
    assert.equal(deposited.depositId, deposit.depositId);
    assert.deepEqual(deposited.sourceTx, {
      chainDomain: world.source.chainDomain,
      txHash: deposit.txHash,
      blockNumber: 12,
      blockHash: hash(12),
      logIndex: 0,
      at: new Date(block(12).timestamp * 1000).toISOString(),
      final: true,
      amount: "1000000",
    });
    assert.equal(deposited.updatedAt, new Date(clock.now() - 1000).toISOString());
    assert.deepEqual(deposited.watermarks, [
      {
        chainDomain: world.source.chainDomain,
        blockNumber: 15,
        observedAt: new Date(clock.now() - 1000).toISOString(),
      },
    ]);

    assert.equal(await index(world.destination, null, 40, [releaseLog(deposit.depositId, 33)]), 1);
    clock.advance(2000);
    const released = await statusOf(ack.orderId, world.org);
    assert.equal(released.state, "released");
    assert.equal(released.final, true);
    assert.equal(released.destinationTx?.txHash, hash(0xe00000 + 33));
    assert.equal(released.destinationTx?.amount, "990000");
    assert.equal(released.destinationTx?.chainDomain, world.destination.chainDomain);
    assert.deepEqual(
      released.watermarks.map((w) => [w.chainDomain, w.blockNumber]),
      [
        [world.source.chainDomain, 15],
        [world.destination.chainDomain, 40],
      ],
    );
  });

  test("watermarks move only when a range records a new observation; a quiet range and a re-indexed log leave them", async () => {
    const world = freshWorld();
    const { seeded, ack } = await register(world);
    const deposit = depositLog(seeded, 3);
    assert.equal(await index(world.source, null, 5, [deposit]), 1);
    assert.equal(await index(world.source, 5, 50, []), 0, "a quiet range");
    clock.advance(2000);
    const quiet = await statusOf(ack.orderId, world.org);
    assert.deepEqual(
      quiet.watermarks.map((w) => w.blockNumber),
      [5],
      "the chain was indexed to 50, the view's watermark stays at 5",
    );
    await setWatermarkBlock(db.sql, world.source.chainDomain, 2);
    assert.equal(await index(world.source, 2, 60, [deposit]), 0, "re-indexing the same log writes nothing");
    assert.equal(await countBridgeDeposits(db.sql, world.source.chainDomain), "1");
    clock.advance(2000);
    assert.deepEqual(
      (await statusOf(ack.orderId, world.org)).watermarks.map((w) => w.blockNumber),
      [5],
    );
  });

  test("a deposit that carries the ref with other terms, or sits on another chain, is not the order's", async () => {
    const world = freshWorld();
    const { seeded, ack } = await register(world);
    await index(world.source, null, 10, [
      depositLog(seeded, 4, { amount: "999999" } as Partial<BridgeLog>),
      depositLog(seeded, 5, {
        recipient: "0x00000000000000000000000000000000000000cc",
      } as Partial<BridgeLog>),
      depositLog(seeded, 6, { bridge: "0x00000000000000000000000000000000000000b9" } as Partial<BridgeLog>),
    ]);
    await index(world.destination, null, 10, [depositLog(seeded, 7)]);
    clock.advance(2000);
    assert.equal((await statusOf(ack.orderId, world.org)).state, "registered");
  });

  test("a solver-swap registration is recorded and final, with no watermark", async () => {
    const world = freshWorld();
    const { seeded, ack } = await register(world, "solver-swap");
    assert.deepEqual(await statusOf(ack.orderId, world.org), {
      orderId: ack.orderId,
      quoteId: seeded.quoteId,
      lane: "solver-swap",
      state: "recorded",
      final: true,
      watermarks: [],
      createdAt: ack.createdAt,
      updatedAt: ack.createdAt,
    });
  });

  test("scoped by organization, not subject: any subject of the organization reads it; another organization, an unknown id and an openFor order are EIN0009 (and the upstream view of an open-flow order too)", async () => {
    const world = freshWorld();
    const { ack } = await register(world);
    assert.equal((await statusOf(ack.orderId, world.org, "someone-else")).orderId, ack.orderId);
    assertRefusal(await readStatus(ack.orderId, "org_other"), "EIN0009");
    assertRefusal(await readStatus(hubOrderId("q_r1_nosuchquote"), world.org), "EIN0009");
    const [openFor] = await seedAckedOrders(
      db.sql,
      [
        {
          quoteId: `q_r1_hsopenfor${counter}`,
          organization: world.org,
          subject: SUBJECT,
          submittedAt: new Date(clock.now()),
        },
      ],
      {
        providerId: "ext",
        asset: "eip155:31337/erc20:0x00000000000000000000000000000000000000aa",
        amount: "1",
      },
    );
    assert.ok(openFor);
    assertRefusal(await readStatus(openFor.hubOrderId, world.org), "EIN0009");
    const upstreamView = await call(hub, "GET", `/v1/order/${ack.orderId}/status`, {
      headers: { "x-service-org": world.org, "x-service-subject": SUBJECT },
    });
    assertRefusal(upstreamView, "EIN0009");
  });

  test("10 concurrent readers of one order cost one database read per 2 s", async () => {
    const world = freshWorld();
    const { ack } = await register(world);
    const reader = createHubStatusReader({ sql: db.sql, clock, cacheMs: 2000, capacity: 100 });
    const first = await Promise.all(Array.from({ length: 10 }, () => reader.read(ack.orderId, world.org)));
    assert.equal(reader.databaseReads, 1);
    for (const status of first) assert.deepEqual(status, first[0]);
    clock.advance(1999);
    await Promise.all(Array.from({ length: 10 }, () => reader.read(ack.orderId, world.org)));
    assert.equal(reader.databaseReads, 1);
    clock.advance(1);
    await Promise.all(Array.from({ length: 10 }, () => reader.read(ack.orderId, world.org)));
    assert.equal(reader.databaseReads, 2);
    await assert.rejects(reader.read(ack.orderId, "org_other"), { code: "EIN0009" });
  });
});

describe("GET /status/{orderId}: which deposit and release are the order's", () => {
  const other = "0x00000000000000000000000000000000000000cc";
  const claimOf = (orderId: string) => readDepositClaim(db.sql, orderId);

  test("two orders whose quotes carry the same ref: one deposit is claimed by one order, the other stays registered until its own deposit appears", async () => {
    const world = freshWorld();
    const ref = hash(0xaf0000 + counter) as `0x${string}`;
    const first = await register(world, "open-flow", { ref });
    const second = await register(world, "open-flow", { ref });
    const d1 = depositLog(first.seeded, 3);
    await index(world.source, null, 5, [d1]);
    clock.advance(2000);
    const firstRead = await statusOf(first.ack.orderId, world.org);
    assert.equal(firstRead.state, "deposited");
    assert.equal(firstRead.sourceTx?.txHash, d1.txHash);
    const secondRead = await statusOf(second.ack.orderId, world.org);
    assert.equal(secondRead.state, "registered", "the deposit is the first order's");
    assert.equal(secondRead.sourceTx, undefined);

    const d2 = depositLog(second.seeded, 8);
    await index(world.source, 5, 9, [d2]);
    clock.advance(2000);
    const secondLater = await statusOf(second.ack.orderId, world.org);
    assert.equal(secondLater.state, "deposited");
    assert.equal(secondLater.sourceTx?.txHash, d2.txHash);
    assert.equal(secondLater.depositId, d2.depositId);
    assert.equal((await statusOf(first.ack.orderId, world.org)).sourceTx?.txHash, d1.txHash, "claims stay");
    assert.equal(await claimOf(first.ack.orderId), d1.txHash);
    assert.equal(await claimOf(second.ack.orderId), d2.txHash);

    // The release of the second deposit completes the second order only.
    await index(world.destination, null, 20, [releaseLog(d2.depositId, 12)]);
    clock.advance(2000);
    assert.equal((await statusOf(second.ack.orderId, world.org)).state, "released");
    assert.equal((await statusOf(first.ack.orderId, world.org)).state, "deposited");
  });

  test("a deposit by another depositor is ignored when the quote named sourceAccount", async () => {
    const world = freshWorld();
    const { seeded, ack } = await register(world);
    await index(world.source, null, 5, [depositLog(seeded, 3, { depositor: other } as Partial<BridgeLog>)]);
    clock.advance(2000);
    assert.equal((await statusOf(ack.orderId, world.org)).state, "registered");
    assert.equal(await claimOf(ack.orderId), null);
    const own = depositLog(seeded, 7);
    await index(world.source, 5, 8, [own]);
    clock.advance(2000);
    const read = await statusOf(ack.orderId, world.org);
    assert.equal(read.state, "deposited");
    assert.equal(read.sourceTx?.txHash, own.txHash);
  });

  test("a deposit stamped more than 60 s before the quote's issue time is ignored; within the 60 s skew it counts", async () => {
    const world = freshWorld();
    const issuedAtSeconds = Math.floor(clock.now() / 1000);
    const { seeded, ack } = await register(world);
    // Block 4 is stamped 61 s before the quote was issued, block 5 59 s before.
    const timestampOf = (n: number) => (n < 6 ? issuedAtSeconds - 65 + n : block(n).timestamp);
    await index(world.source, null, 4, [depositLog(seeded, 4)], timestampOf);
    clock.advance(2000);
    assert.equal((await statusOf(ack.orderId, world.org)).state, "registered", "made before the quote");
    const within = depositLog(seeded, 5);
    await index(world.source, 4, 5, [within], timestampOf);
    clock.advance(2000);
    const read = await statusOf(ack.orderId, world.org);
    assert.equal(read.state, "deposited");
    assert.equal(read.sourceTx?.txHash, within.txHash);
    assert.equal(read.sourceTx?.at, new Date((issuedAtSeconds - 60) * 1000).toISOString());
  });

  test("concurrent status reads of two orders with one candidate deposit, through two readers (two replicas), claim it once", async () => {
    const world = freshWorld();
    const ref = hash(0xbf0000 + counter) as `0x${string}`;
    const orders = [await register(world, "open-flow", { ref }), await register(world, "open-flow", { ref })];
    const deposit = depositLog(orders[0]!.seeded, 3);
    await index(world.source, null, 5, [deposit]);
    const replicas = [db.sql, db.sql].map((sql) =>
      createHubStatusReader({ sql, clock, cacheMs: 2000, capacity: 100 }),
    );
    const reads = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        replicas[i % 2]!.read(orders[Math.floor(i / 2) % 2]!.ack.orderId, world.org),
      ),
    );
    const depositedIds = new Set(reads.filter((r) => r.state === "deposited").map((r) => r.orderId));
    assert.equal(depositedIds.size, 1, "exactly one order reads the deposit");
    for (const read of reads) {
      if (read.state === "deposited") assert.equal(read.sourceTx?.txHash, deposit.txHash);
      else assert.equal(read.state, "registered");
    }
    assert.equal(await countDepositClaims(db.sql, world.source.chainDomain, deposit.txHash), "1");
    // Every replica agrees afterwards, from the one claim.
    clock.advance(2000);
    for (const replica of replicas) {
      for (const order of orders) {
        const read = await replica.read(order.ack.orderId, world.org);
        assert.equal(read.state, depositedIds.has(order.ack.orderId) ? "deposited" : "registered");
      }
    }
  });

  test("six orders sharing a ref and three deposits, read concurrently many times: each deposit is claimed by exactly one order, and a lost race takes the next deposit", async () => {
    const world = freshWorld();
    const ref = hash(0xcf0000 + counter) as `0x${string}`;
    const orders: Awaited<ReturnType<typeof register>>[] = [];
    for (let i = 0; i < 6; i += 1) orders.push(await register(world, "open-flow", { ref }));
    const deposits = [3, 4, 5].map((n) => depositLog(orders[0]!.seeded, n));
    await index(world.source, null, 6, deposits);
    const reads = await Promise.all(
      Array.from({ length: 36 }, (_, i) =>
        claimAndReadOpenFlowStatus(
          createOpenFlowStore(db.sql),
          orders[i % 6]!.ack.orderId,
          new Date(clock.now()),
        ),
      ),
    );
    const holders = new Map<string, Set<string>>();
    for (const read of reads) {
      assert.ok(read);
      if (read.status.state !== "deposited") continue;
      const tx = read.status.sourceTx?.txHash ?? "";
      holders.set(tx, new Set([...(holders.get(tx) ?? []), read.status.orderId]));
    }
    assert.deepEqual(
      [...holders.keys()].sort(),
      deposits.map((d) => d.txHash).sort(),
      "all three are claimed",
    );
    for (const [tx, holder] of holders) assert.equal(holder.size, 1, `${tx} is one order's`);
    const claims = await listDepositClaims(db.sql, world.source.chainDomain);
    assert.equal(claims.length, 3);
    for (const claim of claims) assert.deepEqual(holders.get(claim.tx_hash), new Set([claim.hub_order_id]));
  });

  test("a claimed deposit whose chain history is forgotten (a devnet started from genesis) is replaced by the next matching deposit", async () => {
    const world = freshWorld();
    const { seeded, ack } = await register(world);
    const before = depositLog(seeded, 3);
    await index(world.source, null, 5, [before]);
    clock.advance(2000);
    assert.equal((await statusOf(ack.orderId, world.org)).sourceTx?.txHash, before.txHash);
    await createChainFactsStore(db.sql).forgetChainHistory(world.source.chainDomain);
    const after = depositLog(seeded, 4, { txHash: hash(0xd10004) } as Partial<BridgeLog>);
    await index(world.source, null, 6, [after]);
    clock.advance(2000);
    const read = await statusOf(ack.orderId, world.org);
    assert.equal(read.state, "deposited");
    assert.equal(read.sourceTx?.txHash, after.txHash);
    assert.equal(await claimOf(ack.orderId), after.txHash);
  });

  test("a release that pays less, another recipient or another token reads mismatched (final), not released; paying more is released", async () => {
    const cases: Array<{ overrides: Partial<BridgeLog>; fields: string[] | undefined }> = [
      { overrides: { amount: "989999" } as Partial<BridgeLog>, fields: ["amount"] },
      { overrides: { recipient: other } as Partial<BridgeLog>, fields: ["recipient"] },
      {
        overrides: { token: "0x00000000000000000000000000000000000000ab" } as Partial<BridgeLog>,
        fields: ["token"],
      },
      {
        overrides: { recipient: other, amount: "1" } as Partial<BridgeLog>,
        fields: ["recipient", "amount"],
      },
      { overrides: { amount: "990001" } as Partial<BridgeLog>, fields: undefined },
    ];
    for (const { overrides, fields } of cases) {
      const world = freshWorld();
      const { seeded, ack } = await register(world);
      const deposit = depositLog(seeded, 3);
      await index(world.source, null, 5, [deposit]);
      await index(world.destination, null, 20, [releaseLog(deposit.depositId, 12, overrides)]);
      clock.advance(2000);
      const read = await statusOf(ack.orderId, world.org);
      assert.equal(read.final, true);
      assert.equal(read.destinationTx?.txHash, hash(0xe00000 + 12));
      if (!fields) {
        assert.equal(read.state, "released", JSON.stringify(overrides));
        assert.equal(read.releaseMismatch, undefined);
        continue;
      }
      assert.equal(read.state, "mismatched", JSON.stringify(overrides));
      assert.deepEqual(read.releaseMismatch?.fields, fields);
      assert.match(
        read.releaseMismatch?.reason ?? "",
        /the quote disclosed at least 990000 of 0x0+aa to 0x0+bb/,
      );
    }
  });
});
