import assert from "node:assert/strict";
import { after, afterEach, before, describe, test } from "node:test";
import { createTestDatabases, type TestDatabase } from "@hub/store";
import { pollUntil } from "@hub/test-support";
import { parseHubConfig } from "../src/config.js";
import type { HubApp } from "../src/index.js";
import { createOutboundLimiter } from "../src/limits/outbound-limiter.js";
import { type HeldUpstream, startHeldUpstream } from "./fixtures/held-upstream.js";
import { call, createTestHubApp, envelopeOf, quoteBody, SUBJECT } from "./hub-fixture.js";
import { seedQuote } from "./store/quote-rows.js";
import { countSubmissions } from "./store/submission-rows.js";

const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
const ORG = "org_test";
const PERMIT2_SIGNATURE = `0x00${"ab".repeat(65)}`;

let db: TestDatabase;
let upstream: HeldUpstream | undefined;
let hub: HubApp | undefined;

before(async () => {
  db = await databases.open(process.env.DATABASE_URL ? "postgres" : "pglite");
});
after(async () => {
  await db.dispose();
  await databases.dispose();
});

async function startHub(): Promise<{ hub: HubApp; upstream: HeldUpstream }> {
  upstream = await startHeldUpstream();
  hub = createTestHubApp({
    config: { outboundPerProvider: 2, organizationBucket: { ratePerSecond: 1000, burst: 1000 } },
    sql: db.sql,
    providers: [{ id: "devnet", baseUrl: upstream.url, timeoutMs: 30_000 }],
  });
  return { hub, upstream };
}

afterEach(async () => {
  upstream?.release();
  await hub?.close();
  await upstream?.close();
  hub = undefined;
  upstream = undefined;
});

async function seedSubmittableQuote(quoteId: string): Promise<{ quoteRequestId: string; quoteId: string }> {
  const now = Date.now();
  await seedQuote(db.sql, {
    quoteId,
    orgId: ORG,
    expiresAt: new Date(now + 600_000),
    registrableUntil: new Date(now + 600_000),
  });
  return { quoteRequestId: `qr-${quoteId}`, quoteId };
}

function submit(hub: HubApp, quote: { quoteRequestId: string; quoteId: string }) {
  return call(hub, "POST", "/v1/order/openfor", {
    headers: SUBJECT,
    json: { ...quote, signature: PERMIT2_SIGNATURE },
  });
}

describe("the outbound limiter per provider", () => {
  test("the cap defaults to 128 calls per provider, so the 64 quotes in flight on both OIF lanes fit", () => {
    assert.equal(parseHubConfig({ gatewayCredential: "g".repeat(32) }).outboundPerProvider, 128);
  });

  test("slots are per provider and a released slot is free again, once", () => {
    const limiter = createOutboundLimiter({ maxConcurrentPerProvider: 2 });
    const first = limiter.tryAcquire("a");
    const second = limiter.tryAcquire("a");
    assert.ok(first && second);
    assert.equal(limiter.tryAcquire("a"), undefined);
    assert.ok(limiter.tryAcquire("b"), "another provider has its own slots");
    first();
    first();
    assert.equal(limiter.inFlight("a"), 1);
    assert.ok(limiter.tryAcquire("a"));
    assert.equal(limiter.tryAcquire("a"), undefined);
  });

  test("past the cap a quote answers EIN0081 and nothing more reaches the slow upstream", async () => {
    const { hub, upstream } = await startHub();
    const pending = [
      call(hub, "POST", "/v1/quote", { headers: SUBJECT, json: quoteBody() }),
      call(hub, "POST", "/v1/quote", { headers: SUBJECT, json: quoteBody() }),
    ];
    await pollUntil("two calls held upstream", () => upstream.received.length === 2, {
      timeoutMs: 10_000,
      intervalMs: 10,
    });
    const shed = envelopeOf(await call(hub, "POST", "/v1/quote", { headers: SUBJECT, json: quoteBody() }));
    assert.equal(shed.success, false);
    assert.equal(shed.errors?.[0]?.error_code, "EIN0081");
    assert.equal(upstream.received.length, 2, "the shed quote sent nothing upstream");
    // What an operator sees meanwhile: the sheds, and the calls in flight.
    const metrics = await hub.metrics.metrics();
    assert.match(metrics, /^hub_sheds_total\{limit="outbound",provider="devnet"\} [1-9]\d*$/m);
    assert.match(metrics, /^hub_sheds_total\{limit="quotes-in-flight",provider=""\} 0$/m);
    assert.match(metrics, /^hub_upstream_in_flight\{provider="devnet"\} 2$/m);
    assert.match(metrics, /^hub_quotes_in_flight [12]$/m);
    upstream.release();
    await Promise.all(pending);
  });

  test("past the cap a submission answers EIN0081 before reserving: its re-post forwards, never EIN0052", async () => {
    const { hub, upstream } = await startHub();
    const held = [await seedSubmittableQuote("q-outbound-1"), await seedSubmittableQuote("q-outbound-2")];
    const refused = await seedSubmittableQuote("q-outbound-3");
    const pending = held.map((quote) => submit(hub, quote));
    await pollUntil("two submissions held upstream", () => upstream.received.length === 2, {
      timeoutMs: 10_000,
      intervalMs: 10,
    });

    const shed = envelopeOf(await submit(hub, refused));
    assert.equal(shed.success, false);
    assert.equal(shed.errors?.[0]?.error_code, "EIN0081");
    assert.equal(upstream.received.length, 2, "the shed submission sent nothing upstream");
    const metrics = await hub.metrics.metrics();
    assert.match(
      metrics,
      /^hub_reservations_pending\{state="forwarding"\} 2$/m,
      "the two held are forwarding",
    );
    assert.match(metrics, /^hub_reservations_pending\{state="unknown"\} 0$/m);
    assert.match(metrics, /^hub_reservation_oldest_age_seconds\{state="forwarding"\} \d/m);
    assert.equal(await countSubmissions(db.sql, refused.quoteId), 0, "no reservation is left behind");

    upstream.release();
    await Promise.all(pending);
    const again = envelopeOf(await submit(hub, refused));
    assert.equal(upstream.received.length, 3, "the re-post was forwarded");
    assert.equal(again.success, false);
    assert.notEqual(again.errors?.[0]?.error_code, "EIN0052");
    assert.notEqual(again.errors?.[0]?.error_code, "EIN0081");
  });
});
