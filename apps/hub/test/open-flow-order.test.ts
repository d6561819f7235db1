import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { hubOrderId, type OrderCreateAck } from "@hub/contract";
import { createMemoryCounters } from "@hub/counters";
import { createTestDatabases, type SqlClient, type TestDatabase } from "@hub/store";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { HubApp, HubConfigInput } from "../src/index.js";
import { assertRefusal, call, createTestHubApp, envelopeOf, manualClock } from "./hub-fixture.js";
import { type SeededQuote, seedOifQuote, seedOpenFlowQuote } from "./open-flow-order-seed.js";
import { countOrderRows, readRegistration } from "./store/open-flow-rows.js";
import { seedAckedOrders } from "./store/order-status-seed.js";
import { tamperDepositAmount } from "./store/quote-rows.js";

const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
const SUBJECT = "user-1";
const user = privateKeyToAccount(generatePrivateKey());
const stranger = privateKeyToAccount(generatePrivateKey());
const sourceAccount = user.address.toLowerCase() as `0x${string}`;

let db: TestDatabase;
const clock = manualClock();
const hubs: HubApp[] = [];
let hub: HubApp;
let orgCounter = 0;

function startHub(config: Partial<HubConfigInput> = {}, sql: SqlClient = db.sql): HubApp {
  const started = createTestHubApp({
    config,
    counters: createMemoryCounters({}, { clock }),
    clock,
    sql,
    providers: [
      { id: "ext", kind: "external-aggregator", baseUrl: "http://127.0.0.1:9" },
      { id: "ext-off", kind: "external-aggregator", baseUrl: "http://127.0.0.1:9", enabled: false },
      { id: "oif", kind: "oif-aggregator", baseUrl: "http://127.0.0.1:9" },
    ],
  });
  hubs.push(started);
  return started;
}

/** Each test its own organization: buckets and quotes never leak between tests. */
function freshOrg(): string {
  orgCounter += 1;
  return `org_of_${process.pid}_${orgCounter}`;
}

function quote(
  organization: string,
  options: Partial<Parameters<typeof seedOpenFlowQuote>[1]> = {},
): Promise<SeededQuote> {
  return seedOpenFlowQuote(db.sql, {
    organization,
    subject: SUBJECT,
    sourceAccount,
    issuedAt: new Date(clock.now()),
    ...options,
  });
}

async function signed(seeded: SeededQuote, signer = user, text = seeded.template.signIntent ?? "") {
  return {
    quoteId: seeded.quoteId,
    artifactHash: seeded.template.signableHash,
    signature: await signer.signMessage({ message: text }),
    signer: sourceAccount,
    scheme: "eip191",
  };
}

function post(organization: string, body: unknown, target: HubApp = hub) {
  return call(target, "POST", "/v1/order", {
    headers: { "x-service-org": organization, "x-service-subject": SUBJECT },
    json: body,
  });
}

async function ackOf(answer: Awaited<ReturnType<typeof post>>): Promise<OrderCreateAck> {
  const envelope = envelopeOf(answer);
  assert.equal(envelope.success, true, answer.body.toString());
  return envelope.data as OrderCreateAck;
}

function rowsOf(quoteId: string): Promise<{ submissions: number; registrations: number }> {
  return countOrderRows(db.sql, quoteId);
}

async function assertNothingWritten(quoteId: string): Promise<void> {
  assert.deepEqual(await rowsOf(quoteId), { submissions: 0, registrations: 0 }, "a refusal writes nothing");
}

before(async () => {
  db = await databases.open(process.env.DATABASE_URL ? "postgres" : "pglite");
  hub = startHub();
});

after(async () => {
  for (const started of hubs) await started.close();
  await db.dispose();
  await databases.dispose();
});

describe("POST /order (open flow), the checks in the spec's order", () => {
  test("a signed registration by the quote's sourceAccount over signIntent is acked with orderId = hubOrderId", async () => {
    const org = freshOrg();
    const seeded = await quote(org);
    const ack = await ackOf(await post(org, await signed(seeded)));
    assert.deepEqual(ack, {
      orderId: hubOrderId(seeded.quoteId),
      quoteId: seeded.quoteId,
      createdAt: new Date(clock.now()).toISOString(),
    });
    assert.deepEqual(await rowsOf(seeded.quoteId), { submissions: 1, registrations: 1 });
    const registration = await readRegistration(db.sql, seeded.quoteId);
    assert.deepEqual(registration, { signer: sourceAccount, scheme: "eip191", lane: "open-flow" });
  });

  test("check 1: an unknown quote, another organization's or another subject's quote is EIN0010 quoteId", async () => {
    const org = freshOrg();
    const seeded = await quote(org);
    const body = await signed(seeded);
    assertRefusal(await post(org, { ...body, quoteId: "q_r1_nosuchquote" }), "EIN0010", "quoteId");
    assertRefusal(await post(freshOrg(), body), "EIN0010", "quoteId");
    const otherSubject = await call(hub, "POST", "/v1/order", {
      headers: { "x-service-org": org, "x-service-subject": "user-2" },
      json: body,
    });
    assertRefusal(otherSubject, "EIN0010", "quoteId");
    await assertNothingWritten(seeded.quoteId);
  });

  test("check 2: a repeat for a quote with an order returns the first ack, after expiresAt and with garbage signature fields", async () => {
    const org = freshOrg();
    const seeded = await quote(org);
    const first = await ackOf(await post(org, await signed(seeded)));
    clock.advance(60_000);
    const garbage = [
      { quoteId: seeded.quoteId, artifactHash: `0x${"00".repeat(32)}` },
      { quoteId: seeded.quoteId, artifactHash: `0x${"00".repeat(32)}`, signature: "0xzz" },
      {
        quoteId: seeded.quoteId,
        artifactHash: seeded.template.signableHash,
        signature: "0x1234",
        signer: "nobody",
        scheme: "rsa",
      },
    ];
    for (const body of garbage) assert.deepEqual(await ackOf(await post(org, body)), first);
    assert.deepEqual(await rowsOf(seeded.quoteId), { submissions: 1, registrations: 1 });
  });

  test("check 2: a repeat that raced the first registration answers its ack, not the refusal its earlier checks found", async () => {
    const org = freshOrg();
    const seeded = await quote(org);
    // The repeat's look for an existing order is read before the first registration commits and
    // handed back only after it has: the repeat then fails its own signature check.
    let reached!: () => void;
    let release!: () => void;
    const lookedUp = new Promise<void>((resolve) => (reached = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    let armed = true;
    const heldSql: SqlClient = {
      driver: db.sql.driver,
      exec: (text) => db.sql.exec(text),
      run: (name, text, params) => db.sql.run(name, text, params),
      transaction: (fn) => db.sql.transaction(fn),
      close: async () => {},
      async query(text, params) {
        const rows = await db.sql.query(text, params);
        if (armed && /JOIN submissions s ON s.hub_order_id = \$2/.test(text)) {
          armed = false;
          reached();
          await gate;
        }
        return rows as never;
      },
    };
    const racing = startHub({}, heldSql);
    const repeat = post(org, { quoteId: seeded.quoteId, artifactHash: seeded.template.signableHash }, racing);
    await lookedUp;
    const first = await ackOf(await post(org, await signed(seeded)));
    release();
    assert.deepEqual(await ackOf(await repeat), first, "the unsigned repeat is answered the order's ack");
    assert.deepEqual(await rowsOf(seeded.quoteId), { submissions: 1, registrations: 1 });
  });

  test("check 2: a quote whose order was created through openFor answers that order's ack (its hubOrderId and submittedAt)", async () => {
    const org = freshOrg();
    const submittedAt = new Date(clock.now() - 5000);
    const [order] = await seedAckedOrders(
      db.sql,
      [{ quoteId: `q_r1_openfor${orgCounter}`, organization: org, subject: SUBJECT, submittedAt }],
      {
        providerId: "oif",
        asset: "eip155:31337/erc20:0x00000000000000000000000000000000000000aa",
        amount: "1",
      },
    );
    assert.ok(order);
    clock.advance(60_000);
    const ack = await ackOf(
      await post(org, { quoteId: order.quoteId, artifactHash: `0x${"ab".repeat(32)}`, signer: "0x1" }),
    );
    assert.deepEqual(ack, {
      orderId: order.hubOrderId,
      quoteId: order.quoteId,
      createdAt: submittedAt.toISOString(),
    });
  });

  test("check 3: a first registration at expiresAt is EIN0005, even when everything else is wrong too", async () => {
    const org = freshOrg();
    const seeded = await quote(org, { providerId: "gone" });
    clock.advance(seeded.expiresAt.getTime() - clock.now());
    assertRefusal(
      await post(org, { quoteId: seeded.quoteId, artifactHash: `0x${"00".repeat(32)}` }),
      "EIN0005",
    );
    await assertNothingWritten(seeded.quoteId);
  });

  test("check 4: a quote whose provider is no longer configured is EIN0007 before re-approval and signature checks", async () => {
    const org = freshOrg();
    const seeded = await quote(org, { providerId: "gone" });
    assertRefusal(
      await post(org, { quoteId: seeded.quoteId, artifactHash: `0x${"00".repeat(32)}` }),
      "EIN0007",
      "quoteId",
    );
    await assertNothingWritten(seeded.quoteId);
  });

  test("check 5: OIF-lane and proxy-lane quotes are EIN0007 at re-approval, before the artifactHash and signature checks", async () => {
    const org = freshOrg();
    for (const lane of ["oif-escrow-gasless", "aggregator-gasless", "oif-wrap-native", "oif-swap-token"]) {
      const quoteId = await seedOifQuote(db.sql, {
        organization: org,
        subject: SUBJECT,
        lane,
        issuedAt: new Date(clock.now()),
      });
      const entry = assertRefusal(
        await post(org, { quoteId, artifactHash: `0x${"00".repeat(32)}`, signature: "0x12" }),
        "EIN0007",
        "quoteId",
      );
      assert.ok(entry);
      const envelope = envelopeOf(await post(org, { quoteId, artifactHash: `0x${"00".repeat(32)}` }));
      assert.match(envelope.message ?? "", /POST \/order\/openfor/);
      await assertNothingWritten(quoteId);
    }
  });

  test("check 5: a transfer winner, a disabled provider and a template changed since it was quoted are EIN0007", async () => {
    const org = freshOrg();
    const transfer = await quote(org, { lane: "transfer" });
    assertRefusal(await post(org, await signed(transfer)), "EIN0007", "quoteId");
    const disabled = await quote(org, { providerId: "ext-off" });
    assertRefusal(await post(org, await signed(disabled)), "EIN0007", "quoteId");
    const tampered = await quote(org);
    await tamperDepositAmount(db.sql, tampered.quoteId, "1");
    assertRefusal(await post(org, await signed(tampered)), "EIN0007", "quoteId");
    for (const seeded of [transfer, disabled, tampered]) await assertNothingWritten(seeded.quoteId);
  });

  test("check 6: an artifactHash other than the quote's signableHash is EIN0010 artifactHash, before the signature", async () => {
    const org = freshOrg();
    const seeded = await quote(org);
    const body = { ...(await signed(seeded)), artifactHash: `0x${"11".repeat(32)}` };
    assertRefusal(await post(org, body), "EIN0010", "artifactHash");
    assertRefusal(await post(org, { ...body, signature: "0x12" }), "EIN0010", "artifactHash");
    await assertNothingWritten(seeded.quoteId);
  });

  test("check 7: a partial signature set is EIN0010 naming the first missing field", async () => {
    const org = freshOrg();
    const seeded = await quote(org);
    const full = await signed(seeded);
    const { signature, signer, scheme, ...bare } = full;
    assertRefusal(await post(org, { ...bare, signer, scheme }), "EIN0010", "signature");
    assertRefusal(await post(org, { ...bare, signature, scheme }), "EIN0010", "signer");
    assertRefusal(await post(org, { ...bare, signature, signer }), "EIN0010", "scheme");
    assertRefusal(await post(org, { ...bare, signature, signer, scheme: "" }), "EIN0010", "scheme");
    await assertNothingWritten(seeded.quoteId);
  });

  test("check 7: no signature set is EIN0010 while unsignedOpenFlowRegistration is off, acked when it is on", async () => {
    const org = freshOrg();
    const seeded = await quote(org);
    const bare = { quoteId: seeded.quoteId, artifactHash: seeded.template.signableHash };
    assertRefusal(await post(org, bare), "EIN0010", "signature");
    await assertNothingWritten(seeded.quoteId);
    const lenient = startHub({ unsignedOpenFlowRegistration: true });
    const ack = await ackOf(await post(org, bare, lenient));
    assert.equal(ack.orderId, hubOrderId(seeded.quoteId));
    const registration = await readRegistration(db.sql, seeded.quoteId);
    assert.deepEqual(registration && { signer: registration.signer }, { signer: null });
  });

  test("check 7: a scheme other than eip191 is EIN0010 scheme", async () => {
    const org = freshOrg();
    const seeded = await quote(org);
    assertRefusal(await post(org, { ...(await signed(seeded)), scheme: "eip712" }), "EIN0010", "scheme");
    await assertNothingWritten(seeded.quoteId);
  });

  test("check 7: a quote requested without sourceAccount cannot be registered with a signature: EIN0006", async () => {
    const org = freshOrg();
    const seeded = await quote(org, { sourceAccount: null });
    const entry = assertRefusal(await post(org, await signed(seeded)), "EIN0006", "signer");
    assert.ok(entry);
    const envelope = envelopeOf(await post(org, await signed(seeded)));
    assert.match(envelope.message ?? "", /without sourceAccount/);
    const noIntent = await quote(org, { signIntent: null });
    assertRefusal(await post(org, await signed(noIntent, user, "anything")), "EIN0006", "signer");
    for (const quoted of [seeded, noIntent]) await assertNothingWritten(quoted.quoteId);
  });

  test("check 7: a signer other than the quote's sourceAccount is EIN0010 signer (case-insensitive match is accepted)", async () => {
    const org = freshOrg();
    const seeded = await quote(org);
    const body = await signed(seeded, stranger);
    assertRefusal(await post(org, { ...body, signer: stranger.address }), "EIN0010", "signer");
    await assertNothingWritten(seeded.quoteId);
    const upper = `0x${sourceAccount.slice(2).toUpperCase()}`;
    const ack = await ackOf(await post(org, { ...(await signed(seeded)), signer: upper }));
    assert.equal(ack.quoteId, seeded.quoteId);
  });

  test("check 7: a signature by another key is EIN0010 signature", async () => {
    const org = freshOrg();
    const seeded = await quote(org);
    assertRefusal(await post(org, await signed(seeded, stranger)), "EIN0010", "signature");
    assertRefusal(
      await post(org, { ...(await signed(seeded)), signature: "0x1234" }),
      "EIN0010",
      "signature",
    );
    assertRefusal(
      await post(org, { ...(await signed(seeded)), signature: "not hex" }),
      "EIN0010",
      "signature",
    );
    await assertNothingWritten(seeded.quoteId);
  });

  test("check 7: a signature over an altered signIntent is EIN0010 signature", async () => {
    const org = freshOrg();
    const seeded = await quote(org);
    const altered = `${seeded.template.signIntent ?? ""} `;
    assertRefusal(await post(org, await signed(seeded, user, altered)), "EIN0010", "signature");
    await assertNothingWritten(seeded.quoteId);
  });

  test("a solver-swap winner is recorded (one order, no deposit)", async () => {
    const org = freshOrg();
    const seeded = await quote(org, { lane: "solver-swap" });
    const ack = await ackOf(await post(org, await signed(seeded)));
    assert.equal(ack.orderId, hubOrderId(seeded.quoteId));
    const registration = await readRegistration(db.sql, seeded.quoteId);
    assert.deepEqual(registration && { lane: registration.lane }, { lane: "solver-swap" });
  });

  test("10 concurrent identical POST /order make one order, and every answer is its ack", async () => {
    const org = freshOrg();
    const seeded = await quote(org);
    const body = await signed(seeded);
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(org, body)));
    const acks = await Promise.all(answers.map(ackOf));
    for (const ack of acks) assert.deepEqual(ack, acks[0]);
    assert.deepEqual(await rowsOf(seeded.quoteId), { submissions: 1, registrations: 1 });
  });

  test("every POST /order whose body validates is charged to the order bucket, duplicates and refusals included", async () => {
    const org = freshOrg();
    const tight = startHub({ organizationBucket: { ratePerSecond: 0.001, burst: 4 } });
    const seeded = await quote(org);
    const body = await signed(seeded);
    const first = await ackOf(await post(org, body, tight));
    assert.deepEqual(await ackOf(await post(org, body, tight)), first);
    assertRefusal(await post(org, { ...body, quoteId: "q_r1_nosuchquote" }, tight), "EIN0010", "quoteId");
    assertRefusal(await post(org, { quoteId: seeded.quoteId }, tight), "EIN0001", "artifactHash");
    assert.deepEqual(await ackOf(await post(org, body, tight)), first);
    const shed = envelopeOf(await post(org, body, tight));
    assert.equal(shed.success, false);
    assert.equal(shed.errors?.[0]?.error_code, "EIN0080", "the fifth valid body finds the bucket spent");
  });
});
