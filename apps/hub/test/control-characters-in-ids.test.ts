import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createTestDatabases, type TestDatabase } from "@hub/store";
import { pino } from "pino";
import type { HubApp } from "../src/index.js";
import { assertRefusal, call, createTestHubApp, envelopeOf, SUBJECT } from "./hub-fixture.js";
import { setWatermark } from "./store/onchain-views-seed.js";

const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
const DOMAIN = "eip155:31337";
const HASH = `0x${"ab".repeat(32)}`;
/** A NUL (which PostgreSQL text cannot hold), another C0 control, DEL and a newline, inside and alone. */
const ids = ["a%00b", "%00", "%01", "ab%0Acd", "%7F"];
let db: TestDatabase;
let hub: HubApp;
const logLines: string[] = [];

before(async () => {
  db = await databases.open(process.env.DATABASE_URL ? "postgres" : "pglite");
  hub = createTestHubApp({
    sql: db.sql,
    logger: pino({ level: "info" }, { write: (line: string) => logLines.push(line) }),
  });
  await setWatermark(db.sql, DOMAIN, 31337, 100, 1_800_000_000);
});

after(async () => {
  await hub.close();
  await db.dispose();
  await databases.dispose();
});

const get = (url: string) => call(hub, "GET", url, { headers: SUBJECT });

describe("a control character in an id reads as an unknown id (issue: NUL answered EIN0049)", () => {
  test("a path id with a NUL or another control character answers each route's unknown-id answer", async () => {
    for (const id of ids) {
      const raw = decodeURIComponent(id);
      assertRefusal(await get(`/v1/order/${id}/status`), "EIN0009");
      assertRefusal(await get(`/v1/status/${id}`), "EIN0009");
      assertRefusal(await get(`/v1/onchain/${id}/order`), "EIN0009");
      const fill = envelopeOf(await get(`/v1/onchain/${id}/fill`));
      assert.deepEqual(fill.data, {
        orderId: raw,
        filled: false,
        settled: false,
        status: null,
        fills: [],
        watermarks: [],
      });
      const refund = envelopeOf(await get(`/v1/onchain/${id}/refund`));
      assert.deepEqual(refund.data, { orderId: raw, refundable: false, reason: "unknown-order" });
      assertRefusal(await get(`/v1/onchain/tx/${id}/${HASH}/order`), "EIN0051");
      const byTx = envelopeOf(await get(`/v1/onchain/tx/${DOMAIN}/${id}/order`));
      assert.equal(byTx.success, true);
      assert.equal((byTx.data as { orderId: unknown }).orderId, null);
    }
  });

  test("a quoteId with a NUL or another control character is an unknown quote on both submission routes", async () => {
    for (const id of ids) {
      const raw = decodeURIComponent(id);
      assertRefusal(
        await call(hub, "POST", "/v1/order/openfor", {
          headers: SUBJECT,
          json: { quoteRequestId: raw, quoteId: raw },
        }),
        "EIN0001",
        "quoteId",
      );
      assertRefusal(
        await call(hub, "POST", "/v1/order", {
          headers: SUBJECT,
          json: { quoteId: raw, artifactHash: HASH },
        }),
        "EIN0010",
        "quoteId",
      );
    }
  });

  test("a cursor with a control character, an oversized timestamp or over 512 characters is EIN0001 cursor", async () => {
    const cursors = [
      "a%00b",
      "%01",
      Buffer.from(`${"9".repeat(20)}.${"a".repeat(64)}`).toString("base64url"),
      Buffer.from(`${"9".repeat(19)}.${"a".repeat(64)}`).toString("base64url"),
      Buffer.from(`${"9".repeat(17)}.${"a".repeat(64)}`).toString("base64url"),
      Buffer.from(`1.a${"\u0000".repeat(63)}`).toString("base64url"),
      "A".repeat(513),
      "A".repeat(4000),
    ];
    for (const cursor of cursors) {
      assertRefusal(await get(`/v1/orders?cursor=${cursor}`), "EIN0001", "cursor");
    }
  });

  test("none of these answers logs an error or a stack trace", () => {
    for (const line of logLines) {
      const entry = JSON.parse(line) as { level: number };
      assert.ok(entry.level < 50, `an error line: ${line.slice(0, 300)}`);
      assert.doesNotMatch(line, /stack/, line.slice(0, 300));
    }
  });
});
