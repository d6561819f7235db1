import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createTestDatabases, type TestDatabase } from "@hub/store";
import { pino } from "pino";
import { parseHubConfig } from "../src/config.js";
import { createReconciler, type Reconciler } from "../src/reconciler/create-reconciler.js";
import { manualClock } from "./hub-fixture.js";
import { seedAckedOrders } from "./store/order-status-seed.js";
import { seedQuote, storedQuoteIds } from "./store/quote-rows.js";

const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
const DAY_MS = 24 * 3_600_000;
const ORG = "org_retention";

let db: TestDatabase;
const clock = manualClock();
const reconcilers: Reconciler[] = [];

function startReconciler(instanceId: string, batchSize: number): Reconciler {
  const reconciler = createReconciler({
    sql: db.sql,
    chains: [],
    clock,
    logger: pino({ level: "silent" }),
    instanceId,
    quotePruning: {
      retentionMs: parseHubConfig({ gatewayCredential: "g".repeat(32) }).quoteRetentionMs,
      batchSize,
    },
  });
  reconcilers.push(reconciler);
  return reconciler;
}

before(async () => {
  db = await databases.open(process.env.DATABASE_URL ? "postgres" : "pglite");
});

after(async () => {
  for (const reconciler of reconcilers) await reconciler.stop();
  await db.dispose();
  await databases.dispose();
});

describe("quote retention", () => {
  test("the retention defaults to 7 days", () => {
    assert.equal(parseHubConfig({ gatewayCredential: "g".repeat(32) }).quoteRetentionMs, 7 * DAY_MS);
  });

  test("the reconciler leader deletes unreferenced quotes past the retention, one batch a tick; referenced and fresh quotes stay", async () => {
    const now = clock.now();
    const at = (offsetMs: number) => new Date(now + offsetMs);
    const old = ["q-old-1", "q-old-2", "q-old-3", "q-old-4", "q-old-5"];
    for (const quoteId of old) {
      await seedQuote(db.sql, {
        quoteId,
        orgId: ORG,
        expiresAt: at(-8 * DAY_MS),
        registrableUntil: at(-8 * DAY_MS),
      });
    }
    const [referenced] = await seedAckedOrders(
      db.sql,
      [{ quoteId: "q-old-ordered", organization: ORG, subject: "user-1", submittedAt: at(-30 * DAY_MS) }],
      {
        providerId: "devnet",
        asset: "eip155:31337/erc20:0x00000000000000000000000000000000000000aa",
        amount: "1",
      },
    );
    assert.ok(referenced);
    await seedQuote(db.sql, {
      quoteId: "q-inside-retention",
      orgId: ORG,
      expiresAt: at(-7 * DAY_MS + 60_000),
      registrableUntil: at(-7 * DAY_MS + 60_000),
    });
    await seedQuote(db.sql, {
      quoteId: "q-still-registrable-then",
      orgId: ORG,
      expiresAt: at(-7 * DAY_MS - 600_000),
      registrableUntil: at(-7 * DAY_MS + 600_000),
    });
    await seedQuote(db.sql, {
      quoteId: "q-fresh",
      orgId: ORG,
      expiresAt: at(30_000),
      registrableUntil: at(30_000),
    });
    const kept = ["q-fresh", "q-inside-retention", "q-old-ordered", "q-still-registrable-then"];

    const leader = startReconciler("rec_leader", 2);
    const follower = startReconciler("rec_follower", 2);
    const first = await leader.tick();
    assert.equal(first.leader, true);
    assert.equal(first.quotesPruned, 2, "one batch of at most 2 in a tick");
    const other = await follower.tick();
    assert.equal(other.leader, false);
    assert.equal(other.quotesPruned, 0, "only the leader prunes");
    assert.equal((await leader.tick()).quotesPruned, 2);
    assert.equal((await leader.tick()).quotesPruned, 1);
    assert.equal((await leader.tick()).quotesPruned, 0);
    assert.deepEqual(await storedQuoteIds(db.sql, [...old, ...kept]), kept);

    clock.advance(120_000);
    assert.equal((await leader.tick()).quotesPruned, 1, "a quote leaves once its retention has passed");
    assert.deepEqual(await storedQuoteIds(db.sql, kept), [
      "q-fresh",
      "q-old-ordered",
      "q-still-registrable-then",
    ]);
  });
});
