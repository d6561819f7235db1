import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createTestDatabases, type SqlExecutor, type TestDatabase } from "@hub/store";
import { createQuoteStore, type NewQuote } from "../src/store/quote-store.js";
import { countQuotes, throughJsonb } from "./store/quote-rows.js";

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

    test("quotes that reach the store from separate callbacks of one event-loop turn go in one statement", async () => {
      const statements: number[] = [];
      const counted: SqlExecutor = {
        query: (text, params) => {
          statements.push((params?.length ?? 0) / 15);
          return db.sql.query(text, params);
        },
        exec: (text) => db.sql.exec(text),
        run: (name, text, params) => {
          statements.push(params.length / 15);
          return db.sql.run(name, text, params);
        },
      };
      const store = createQuoteStore(counted);
      // Three immediates queued together run in one check phase, each its own callback (as three
      // rounds whose last answers are read in one poll phase); a fourth quote comes alone, a turn
      // later. Timers would not do: three 1 ms timers need not all be due in the same timers phase.
      const together = await Promise.all(
        [0, 1, 2].map(
          (i) =>
            new Promise<Promise<void>>((resolve) =>
              setImmediate(() => resolve(store.insert(newQuote(`q-turn-${i}`)))),
            ),
        ),
      );
      await Promise.all(together);
      await store.insert(newQuote("q-turn-alone"));
      assert.deepEqual(statements, [3, 1]);
      for (const quoteId of ["q-turn-0", "q-turn-1", "q-turn-2", "q-turn-alone"]) {
        assert.equal((await store.get(quoteId))?.quoteId, quoteId);
      }
    });

    test("a quote its caller knows to be alone starts its statement in the caller's turn; another waits for the turn's end", async () => {
      const statements: number[] = [];
      const counted: SqlExecutor = {
        query: (text, params) => db.sql.query(text, params),
        exec: (text) => db.sql.exec(text),
        run: (name, text, params) => {
          statements.push(params.length / 15);
          return db.sql.run(name, text, params);
        },
      };
      const store = createQuoteStore(counted);
      const alone = store.insert(newQuote("q-alone-now"), true);
      assert.deepEqual(statements, [1], "the statement started at once");
      await alone;
      const grouped = store.insert(newQuote("q-alone-later"));
      assert.deepEqual(statements, [1], "not alone: nothing started before the turn ends");
      await grouped;
      assert.deepEqual(statements, [1, 1]);
      for (const quoteId of ["q-alone-now", "q-alone-later"]) {
        assert.equal((await store.get(quoteId))?.quoteId, quoteId);
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

    test("after a refused group, groups of the same size are stored again", async () => {
      const store = createQuoteStore(db.sql);
      const before = await countQuotes(db.sql);
      const first = await Promise.allSettled([
        store.insert(newQuote("q-again-0")),
        store.insert(newQuote("q-again-1")),
        store.insert(newQuote("q-again-2", "not a valid subject")),
      ]);
      const second = await Promise.allSettled([
        store.insert(newQuote("q-again-3")),
        store.insert(newQuote("q-again-4")),
        store.insert(newQuote("q-again-5")),
      ]);
      assert.deepEqual(
        [...first, ...second].map((outcome) => outcome.status),
        ["fulfilled", "fulfilled", "rejected", "fulfilled", "fulfilled", "fulfilled"],
      );
      assert.equal(await countQuotes(db.sql), before + 5);
    });

    test("the table takes the subjects, fingerprints and onchain order ids its format checks name, and refuses the rest by name", async () => {
      const store = createQuoteStore(db.sql);
      const hex64 = "0123456789abcdef".repeat(4);
      const cases: Array<[Partial<NewQuote>, string | undefined]> = [
        [{ subject: "a" }, undefined],
        [{ subject: "A-z_0.9@+~".padEnd(128, "x") }, undefined],
        [{ subject: "" }, "quotes_subject_check"],
        [{ subject: "x".repeat(129) }, "quotes_subject_check"],
        [{ subject: "with space" }, "quotes_subject_check"],
        [{ subject: "é" }, "quotes_subject_check"],
        [{ subject: "line\n" }, "quotes_subject_check"],
        [{ requestFingerprint: hex64 }, undefined],
        [{ requestFingerprint: hex64.slice(1) }, "quotes_request_fingerprint_check"],
        [{ requestFingerprint: `${hex64}0` }, "quotes_request_fingerprint_check"],
        [{ requestFingerprint: hex64.toUpperCase() }, "quotes_request_fingerprint_check"],
        [{ requestFingerprint: `${hex64.slice(1)}é` }, "quotes_request_fingerprint_check"],
        [{ onchainOrderId: `0x${hex64}` }, undefined],
        [{ onchainOrderId: null }, undefined],
        [{ onchainOrderId: hex64 }, "quotes_onchain_order_id_check"],
        [{ onchainOrderId: `0x${hex64}0` }, "quotes_onchain_order_id_check"],
        [{ onchainOrderId: `0X${hex64}` }, "quotes_onchain_order_id_check"],
        [{ onchainOrderId: `0x${hex64.slice(2)}gg` }, "quotes_onchain_order_id_check"],
      ];
      const outcomes = await Promise.allSettled(
        cases.map(([fields], i) => store.insert({ ...newQuote(`q-format-${i}`), ...fields })),
      );
      assert.deepEqual(
        outcomes.map((outcome) =>
          outcome.status === "fulfilled" ? undefined : (outcome.reason as { constraint?: string }).constraint,
        ),
        cases.map(([, refusedBy]) => refusedBy),
      );
    });

    test("a stored winner and template read back with the keys in the order a jsonb column gives them", async () => {
      const store = createQuoteStore(db.sql);
      const quote = newQuote("q-key-order");
      const winner = {
        zeta: 1,
        b: { yy: [3, { ccc: "x", a: null, bb: true }], x: "é" },
        "10": "ten",
        "2": "two",
        é: "two bytes",
        f: "one byte",
        "": "empty",
        Z: -0.5,
        amountOut: "1000000",
        quoteId: "q-key-order",
        nested: [{ validUntil: 1700000000, eta: 12, "✓": "three bytes" }],
        tab: "a\tb",
      };
      const template = { version: 1, quoteResponse: { order: { payload: { zz: 1, a: [1, 2] } } }, lane: "x" };
      await store.insert({ ...quote, winner, template });
      const asJsonb = async (value: unknown) => JSON.stringify(await throughJsonb(db.sql, value));
      const stored = await store.get("q-key-order");
      assert.equal(JSON.stringify(stored!.winner), await asJsonb(winner));
      assert.equal(JSON.stringify(stored!.template), await asJsonb(template));
    });

    test("a winner jsonb cannot hold (a NUL, an unpaired surrogate) is refused alone, as before", async () => {
      const store = createQuoteStore(db.sql);
      const before = await countQuotes(db.sql);
      const outcomes = await Promise.allSettled([
        store.insert(newQuote("q-unstorable-0")),
        store.insert({ ...newQuote("q-unstorable-1"), winner: { text: "a\u0000b" } }),
        store.insert({ ...newQuote("q-unstorable-2"), template: { text: "\ud800" } }),
        store.insert({ ...newQuote("q-unstorable-3"), winner: { text: "a\\u0000b \u0001" } }),
      ]);
      assert.deepEqual(
        outcomes.map((outcome) => outcome.status),
        ["fulfilled", "rejected", "rejected", "fulfilled"],
      );
      assert.equal(await countQuotes(db.sql), before + 2);
      assert.deepEqual((await store.get("q-unstorable-3"))!.winner, { text: "a\\u0000b \u0001" });
      await assert.rejects(
        store.insertPrepared({
          ...newQuote("q-unstorable-4"),
          preparationId: "p-4",
          winner: { text: "\u0000" },
        }),
      );
    });
  });
}
