import { cpSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { createPostgresClient } from "../postgres-client.js";
import { openPostgresTestDatabase } from "./open-postgres-test-database.js";
import type { PreparedDataDir, TestDriver } from "./test-database.js";
import { pgliteTemplates, type TestDatabasesState } from "./test-databases-state.js";

/** A data dir for another process: a template copy at `<dataDir>/pglite`, or a URL naming a fresh schema. */
export async function prepareTestDataDir(
  state: TestDatabasesState,
  driver: TestDriver,
): Promise<PreparedDataDir> {
  const dataDir = join(state.root, `data-${++state.counter}`);
  mkdirSync(dataDir, { recursive: true });
  if (driver === "pglite") {
    cpSync((await pgliteTemplates(state)).migrated, join(dataDir, "pglite"), { recursive: true });
    return {
      dataDir,
      databaseUrl: undefined,
      async dispose() {
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const connectionString = state.databaseUrl;
  if (!connectionString) throw new Error("DATABASE_URL is not set");
  const db = await openPostgresTestDatabase(connectionString, true);
  await db.sql.close();
  const url = new URL(connectionString);
  url.searchParams.set("options", `-c search_path=${db.location}`);
  return {
    dataDir,
    databaseUrl: url.toString(),
    async dispose() {
      const admin = createPostgresClient({ connectionString, maxConnections: 1 });
      try {
        await admin.exec(`DROP SCHEMA ${db.location} CASCADE`);
      } finally {
        await admin.close();
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
