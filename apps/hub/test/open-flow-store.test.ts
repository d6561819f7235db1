import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { hubOrderId } from "@hub/contract";
import { createTestDatabases, type TestDatabase } from "@hub/store";
import { createOpenFlowStore, type NewRegistration } from "../src/store/open-flow-store.js";
import { createSubmissionStore, type QuoteForSubmission } from "../src/store/submission-store.js";
import { seedOpenFlowQuote } from "./open-flow-order-seed.js";
import { countOrderRows, readRegistration } from "./store/open-flow-rows.js";

const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
after(() => databases.dispose());

const SUBJECT = "user-1";
const SIGNER = `0x${"5a".repeat(20)}` as const;
const signature = { signer: SIGNER, scheme: "eip191", signature: `0x${"11".repeat(65)}` } as const;

for (const { driver, skip } of databases.drivers) {
  describe(`open-flow registrations in the store (${driver})`, { skip }, () => {
    let db: TestDatabase;
    let counter = 0;
    before(async () => {
      db = await databases.open(driver);
    });
    after(() => db?.dispose());

    /** A stored open-flow quote, read back as a submission reads it. */
    async function storedQuote(): Promise<QuoteForSubmission> {
      counter += 1;
      const seeded = await seedOpenFlowQuote(db.sql, {
        organization: `org_store_${counter}`,
        subject: SUBJECT,
        sourceAccount: SIGNER,
        issuedAt: new Date(),
      });
      const quote = await createSubmissionStore(db.sql).findQuote(seeded.quoteId);
      assert.ok(quote);
      return quote;
    }

    function registration(
      quote: QuoteForSubmission,
      overrides: Partial<NewRegistration> = {},
    ): NewRegistration {
      return {
        hubOrderId: hubOrderId(quote.quoteId),
        quote,
        lane: "open-flow",
        requestFingerprint: "f".repeat(64),
        signature,
        at: new Date("2026-11-26T04:00:00.123Z"),
        ...overrides,
      };
    }

    test("a registration writes the acked submission and its registration; the ack is the submission's", async () => {
      const quote = await storedQuote();
      const registered = await createOpenFlowStore(db.sql).register(registration(quote));
      assert.deepEqual(registered, {
        created: true,
        ack: {
          orderId: hubOrderId(quote.quoteId),
          quoteId: quote.quoteId,
          createdAt: "2026-11-26T04:00:00.123Z",
        },
      });
      assert.deepEqual(await countOrderRows(db.sql, quote.quoteId), { submissions: 1, registrations: 1 });
      assert.deepEqual(await readRegistration(db.sql, quote.quoteId), {
        signer: SIGNER,
        scheme: "eip191",
        lane: "open-flow",
      });
    });

    test("a second registration of the quote writes nothing and gets the first ack (created false)", async () => {
      const quote = await storedQuote();
      const store = createOpenFlowStore(db.sql);
      const first = await store.register(registration(quote));
      const second = await store.register(
        registration(quote, { signature: undefined, at: new Date("2026-11-26T05:00:00Z") }),
      );
      assert.deepEqual(second, { created: false, ack: first.ack });
      assert.deepEqual(await countOrderRows(db.sql, quote.quoteId), { submissions: 1, registrations: 1 });
      assert.deepEqual(await readRegistration(db.sql, quote.quoteId), {
        signer: SIGNER,
        scheme: "eip191",
        lane: "open-flow",
      });
    });

    test("concurrent registrations of one quote make one order: one is created, every one gets its ack", async () => {
      const quote = await storedQuote();
      const store = createOpenFlowStore(db.sql);
      const outcomes = await Promise.all(
        Array.from({ length: 6 }, () => store.register(registration(quote))),
      );
      assert.equal(outcomes.filter((outcome) => outcome.created).length, 1);
      for (const outcome of outcomes) assert.deepEqual(outcome.ack, outcomes[0]?.ack);
      assert.deepEqual(await countOrderRows(db.sql, quote.quoteId), { submissions: 1, registrations: 1 });
    });

    test("an unsigned registration records no signer, scheme or signature", async () => {
      const quote = await storedQuote();
      await createOpenFlowStore(db.sql).register(
        registration(quote, { signature: undefined, lane: "solver-swap" }),
      );
      assert.deepEqual(await readRegistration(db.sql, quote.quoteId), {
        signer: null,
        scheme: null,
        lane: "solver-swap",
      });
    });

    test("a registration row the table refuses leaves no submission either: both rows or neither", async () => {
      const quote = await storedQuote();
      // The registrations table takes only a lowercase signer; the submission is written first.
      const refused = registration(quote, { signature: { ...signature, signer: `0x${"5A".repeat(20)}` } });
      await assert.rejects(createOpenFlowStore(db.sql).register(refused));
      assert.deepEqual(await countOrderRows(db.sql, quote.quoteId), { submissions: 0, registrations: 0 });
      assert.equal((await createOpenFlowStore(db.sql).register(registration(quote))).created, true);
    });

    test("findQuoteForOrder reads the quote with its order's reservation, when there is one", async () => {
      const store = createSubmissionStore(db.sql);
      assert.equal(
        await store.findQuoteForOrder("q_r1_nosuchquote", hubOrderId("q_r1_nosuchquote")),
        undefined,
      );
      assert.equal(await store.findQuoteForOrder("q\u0000nul", hubOrderId("q\u0000nul")), undefined);

      const quote = await storedQuote();
      const id = hubOrderId(quote.quoteId);
      assert.deepEqual(await store.findQuoteForOrder(quote.quoteId, id), { quote, submission: undefined });

      await store.reserve({
        hubOrderId: id,
        quote,
        route: "openfor",
        requestFingerprint: "e".repeat(64),
        at: new Date("2026-11-26T04:00:00Z"),
      });
      assert.deepEqual(await store.findQuoteForOrder(quote.quoteId, id), {
        quote,
        submission: { hubOrderId: id, quoteId: quote.quoteId, state: "forwarding", submittedAt: undefined },
      });

      const registered = await storedQuote();
      const registeredId = hubOrderId(registered.quoteId);
      await createOpenFlowStore(db.sql).register(registration(registered));
      assert.deepEqual(await store.findQuoteForOrder(registered.quoteId, registeredId), {
        quote: registered,
        submission: {
          hubOrderId: registeredId,
          quoteId: registered.quoteId,
          state: "acked",
          submittedAt: new Date("2026-11-26T04:00:00.123Z"),
        },
      });
    });
  });
}
