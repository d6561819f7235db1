import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";
import type { OrdersList } from "@hub/contract";
import { createTestDatabases, type TestDatabase } from "@hub/store";
import type { HubApp } from "../src/index.js";
import { assertRefusal, call, createTestHubApp, envelopeOf } from "./hub-fixture.js";
import {
  DESTINATION_DOMAIN,
  SOURCE_DOMAIN,
  seedChainFacts,
  setWatermark,
  standardOrder,
} from "./store/onchain-views-seed.js";
import { seedAckedOrders } from "./store/order-status-seed.js";

const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
const ORG = "org_list";
const ASSET = "eip155:31337/erc20:0x00000000000000000000000000000000000000aa";
const T = 1_800_000_000;
let db: TestDatabase;
let hub: HubApp;

async function list(subject: string, query = "", org = ORG): Promise<OrdersList> {
  const answer = await call(hub, "GET", `/v1/orders${query}`, {
    headers: { "x-service-org": org, "x-service-subject": subject },
  });
  const envelope = envelopeOf(answer);
  assert.equal(envelope.success, true, answer.body.toString());
  return envelope.data as OrdersList;
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

describe("GET /orders", () => {
  test("cursor paging walks the subject's orders by submittedAt then orderId, with no duplicates or gaps", async () => {
    const base = Date.UTC(2027, 0, 1);
    const times = [0, 1, 1, 1, 2, 3, 3].map((offset) => ({ submittedAt: new Date(base + offset) }));
    const seeded = await seedAckedOrders(
      db.sql,
      times.map((time, index) => ({
        quoteId: `q-list-${index}`,
        organization: ORG,
        subject: "pager",
        ...time,
      })),
      { providerId: "p1", asset: ASSET, amount: "1000000" },
    );
    await seedAckedOrders(
      db.sql,
      [
        {
          quoteId: "q-list-other-subject",
          organization: ORG,
          subject: "someone-else",
          submittedAt: new Date(base),
        },
        {
          quoteId: "q-list-other-org",
          organization: "org_other",
          subject: "pager",
          submittedAt: new Date(base),
        },
      ],
      { providerId: "p1", asset: ASSET, amount: "1" },
    );
    const expected = [...seeded]
      .sort(
        (a, b) => a.submittedAt.getTime() - b.submittedAt.getTime() || (a.hubOrderId < b.hubOrderId ? -1 : 1),
      )
      .map((order) => order.hubOrderId);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor === null ? "?limit=2" : `?limit=2&cursor=${cursor}`;
      const page = await list("pager", query);
      assert.equal(page.subject, "pager");
      assert.ok(page.orders.length <= 2);
      seen.push(...page.orders.map((entry) => entry.orderId));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor !== null && pages < 10);
    assert.deepEqual(seen, expected);
    assert.equal(pages, 4);

    const [entry] = (await list("pager", "?limit=1")).orders;
    assert.ok(entry);
    assert.equal(entry.onchainOrderId, seeded[0]?.onchainOrderId);
    assert.equal(entry.onchainOrderIdSource, "upstream");
    assert.deepEqual(entry.inputs, [{ chainDomain: "eip155:31337", asset: ASSET, amount: "1000000" }]);
    assert.equal(entry.swapInput, undefined);
    assert.equal(entry.refundDeadline, undefined);
    assert.equal(entry.chain, undefined, "no chain object before the Open is observed");
    assert.equal(entry.state, "created");
  });

  test("a fresh canary subject lists nothing and echoes the subject", async () => {
    const subject = `canary-${randomUUID()}`;
    assert.deepEqual(await list(subject), { subject, orders: [], nextCursor: null });
  });

  test("list entries carry chain.status from chain facts: SETTLED, and EXPIRED then REFUNDED", async () => {
    const [settled, expiring] = await seedAckedOrders(
      db.sql,
      [
        {
          quoteId: "q-list-chain-1",
          organization: ORG,
          subject: "chain",
          submittedAt: new Date(Date.UTC(2027, 0, 2)),
        },
        {
          quoteId: "q-list-chain-2",
          organization: ORG,
          subject: "chain",
          submittedAt: new Date(Date.UTC(2027, 0, 3)),
        },
      ],
      { providerId: "p1", asset: ASSET, amount: "5" },
    );
    assert.ok(settled && expiring);
    await seedChainFacts(db.sql, settled.onchainOrderId, standardOrder(T + 600, T + 300), {
      fill: true,
      settle: true,
    });
    await seedChainFacts(db.sql, expiring.onchainOrderId, standardOrder(T + 60, T + 30), {});
    let page = await list("chain");
    assert.deepEqual(
      page.orders.map((entry) => entry.chain?.status),
      ["SETTLED", "OPEN"],
    );
    assert.ok(page.orders[0]?.chain?.settledTx);
    await setWatermark(db.sql, DESTINATION_DOMAIN, 31338, 150, T + 31);
    page = await list("chain");
    assert.equal(page.orders[1]?.chain?.status, "EXPIRED");
    await seedChainFacts(db.sql, expiring.onchainOrderId, standardOrder(T + 60, T + 30), {
      open: false,
      refund: true,
    });
    page = await list("chain");
    assert.equal(page.orders[1]?.chain?.status, "REFUNDED");
    assert.ok(page.orders[1]?.chain?.refundedTx);
  });

  test("a cursor the hub did not issue is EIN0001 with reference cursor", async () => {
    assertRefusal(
      await call(hub, "GET", "/v1/orders?cursor=bm90LWEtY3Vyc29y", {
        headers: { "x-service-org": ORG, "x-service-subject": "pager" },
      }),
      "EIN0001",
      "cursor",
    );
  });
});
