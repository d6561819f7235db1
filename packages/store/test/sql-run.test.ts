import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { setImmediate as turn } from "node:timers/promises";
import { createTestDatabases, type TestDatabase } from "../src/index.js";

const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
after(() => databases.dispose());

const INSERT = "INSERT INTO run_rows (id, body, note) VALUES ($1, $2::json, $3)";

for (const { driver, skip } of databases.drivers) {
  describe(`a named statement run (${driver})`, { skip }, () => {
    let db: TestDatabase;
    before(async () => {
      db = await databases.open(driver, { migrated: false });
      await db.sql.exec(
        "CREATE TABLE run_rows (id text PRIMARY KEY CHECK (id <> 'refused'), body json, note text)",
      );
    });
    after(() => db?.dispose());

    const rows = () =>
      db.sql.query<{ id: string; body: unknown; note: string | null }>("SELECT * FROM run_rows ORDER BY id");

    test("writes what query writes, every time it runs", async () => {
      await db.sql.run("insert_row", INSERT, ["a", JSON.stringify({ text: "é ✓ 'quoted' \\ back" }), null]);
      await db.sql.run("insert_row", INSERT, ["b", "[1,2]", "note"]);
      await db.sql.query(INSERT, ["c", "{}", "x"]);
      assert.deepEqual(await rows(), [
        { id: "a", body: { text: "é ✓ 'quoted' \\ back" }, note: null },
        { id: "b", body: [1, 2], note: "note" },
        { id: "c", body: {}, note: "x" },
      ]);
    });

    test("fails as query fails, and runs again after a failure at any step", async () => {
      const codeOf = (error: unknown) => (error as { code?: string }).code;
      const viaQuery = await db.sql.query(INSERT, ["a", "{}", null]).catch(codeOf);
      const viaRun = await db.sql.run("insert_row", INSERT, ["a", "{}", null]).catch(codeOf);
      assert.equal(viaQuery, "23505");
      assert.equal(viaRun, "23505");
      // A statement that failed on its first run (the Parse succeeded, the insert did not) runs again.
      await assert.rejects(db.sql.run("insert_refused_first", INSERT, ["refused", "{}", null]), {
        code: "23514",
      });
      await db.sql.run("insert_refused_first", INSERT, ["d", "{}", null]);
      // A statement that cannot be parsed is refused every time, and other names are unaffected.
      await assert.rejects(db.sql.run("broken", "INSERT INTO no_such_table VALUES ($1)", ["x"]), {
        code: "42P01",
      });
      await assert.rejects(db.sql.run("broken", "INSERT INTO no_such_table VALUES ($1)", ["x"]), {
        code: "42P01",
      });
      await db.sql.run("insert_row", INSERT, ["e", "{}", null]);
      assert.deepEqual(
        (await rows()).map((row) => row.id),
        ["a", "b", "c", "d", "e"],
      );
    });

    // PGlite has one session: a run must wait for another caller's transaction, not land inside it.
    if (driver === "pglite")
      test("waits for an open transaction instead of running inside it", async () => {
        let release!: () => void;
        const gate = new Promise<void>((resolve) => (release = resolve));
        let seenInside = -1;
        let run: Promise<void> | undefined;
        const transaction = db.sql.transaction(async (tx) => {
          await tx.query(INSERT, ["t1", "{}", null]);
          run = db.sql.run("insert_row", INSERT, ["t2", "{}", null]);
          for (let i = 0; i < 20; i += 1) await turn();
          seenInside = (
            await tx.query<{ n: number }>("SELECT count(*)::int AS n FROM run_rows WHERE id LIKE 't%'")
          )[0]!.n;
          await gate;
        });
        release();
        await transaction;
        await run;
        assert.equal(seenInside, 1);
        assert.deepEqual(
          (await rows()).filter((row) => row.id.startsWith("t")).map((row) => row.id),
          ["t1", "t2"],
        );
      });
  });
}
