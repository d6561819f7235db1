import { cpSync, rmSync } from "node:fs";
import { join } from "node:path";
import { createPgliteClient } from "../pglite-client.js";
import type { TestDatabase } from "./test-database.js";
import { pgliteTemplates, type TestDatabasesState } from "./test-databases-state.js";

/** A copy of the migrated (or empty) template dir, opened. */
export async function openPgliteTestDatabase(
  state: TestDatabasesState,
  migrated: boolean,
): Promise<TestDatabase> {
  const dirs = await pgliteTemplates(state);
  const dir = join(state.root, `db-${++state.counter}`);
  cpSync(migrated ? dirs.migrated : dirs.empty, dir, { recursive: true });
  const sql = await createPgliteClient(dir);
  return {
    driver: "pglite",
    sql,
    location: dir,
    openAnotherClient() {
      throw new Error("a PGlite dir has one opener");
    },
    async dispose() {
      await sql.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
