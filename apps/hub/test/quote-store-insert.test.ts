import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createTestDatabases, type TestDatabase } from "@hub/store";
import { createQuoteStore, type NewQuote } from "../src/store/quote-store.js";
import { countQuotes } from "./store/quote-rows.js";

const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
after(() => databases.dispose());

function newQuote(quoteId: string, subject = "user-1"): NewQuote {
  const issuedAt = new Date();
  return {
    quoteId,
    quoteRequestId: `qr-${quoteId}`,
    orgId: "org_insert",
    subject,
    replicaId: "r1",
    lane: "oif-escrow-gasless",
    providerId: "devnet",
    preparationId: null,
    requestFingerprint: "c".repeat(64),
    winner: { quoteId, text: "é ✓" },
    template: { nested: [1, { quoteId }] },
    onchainOrderId: null,
    issuedAt,
    expiresAt: new Date(issuedAt.getTime() + 30_000),
    registrableUntil: new Date(issuedAt.getTime() + 30_000),
  };
}

for (const { driver, skip } of databases.drivers) {
  describe(`quotes inserted together (${driver})`, { skip }, () => {
    let db: TestDatabase;
    before(async () => {
      db = await databases.open(driver);
    });
    after(() => db?.dispose());

    test("quotes inserted at once are all stored, each as given", async () => {
      const store = createQuoteStore(db.sql);
      const quotes = Array.from({ length: 150 }, (_, i) => newQuote(`q-together-${i}`));
      await Promise.all(quotes.map((quote) => store.insert(quote)));
      assert.equal(await countQuotes(db.sql), 150);
      for (const quote of [quotes[0]!, quotes[77]!, quotes[149]!]) {
        assert.deepEqual(await store.get(quote.quoteId), quote);
      }
    });

    test("a quote the table refuses fails alone: the quotes inserted beside it are stored", async () => {
      const store = createQuoteStore(db.sql);
      const before = await countQuotes(db.sql);
      const outcomes = await Promise.allSettled([
        store.insert(newQuote("q-beside-0")),
        store.insert(newQuote("q-beside-1")),
        store.insert(newQuote("q-beside-2", "not a valid subject")),
        store.insert(newQuote("q-beside-3")),
        store.insert(newQuote("q-beside-1")),
      ]);
      assert.deepEqual(
        outcomes.map((outcome) => outcome.status),
        ["fulfilled", "fulfilled", "rejected", "fulfilled", "rejected"],
      );
      assert.equal(await countQuotes(db.sql), before + 3);
      assert.equal(await store.get("q-beside-2"), undefined);
    });
  });
}
