import { rmSync } from "node:fs";
import { openPgliteTestDatabase } from "./test-databases/open-pglite-test-database.js";
import { openPostgresTestDatabase } from "./test-databases/open-postgres-test-database.js";
import { prepareTestDataDir } from "./test-databases/prepare-test-data-dir.js";
import type { PreparedDataDir, TestDatabase, TestDriver } from "./test-databases/test-database.js";
import { createTestDatabasesState } from "./test-databases/test-databases-state.js";

export type { PreparedDataDir, TestDatabase, TestDriver } from "./test-databases/test-database.js";

export interface TestDatabases {
  /** The drivers to run a suite on, each with the reason when it cannot run here. */
  readonly drivers: ReadonlyArray<{ driver: TestDriver; skip: string | false }>;
  /** A fresh database: a copy of a migrated PGlite template, or a new PostgreSQL schema. */
  open(driver: TestDriver, options?: { migrated?: boolean }): Promise<TestDatabase>;
  /**
   * What another process needs to reach a fresh migrated database: a data dir holding a copy of the
   * template at `<dataDir>/pglite`, or (PostgreSQL) an empty data dir and a URL whose search_path names
   * a fresh schema. Nothing is left open.
   */
  prepareDataDir(driver: TestDriver): Promise<PreparedDataDir>;
  /** Removes the template; call once after the suite. */
  dispose(): Promise<void>;
}

/**
 * Fresh databases for tests. A fresh PGlite dir costs seconds (initdb), so a migrated template dir is
 * made once (kept in the temp dir, see pglite-templates.ts) and every open copies it. On PostgreSQL each database is its own schema, so parallel
 * runs on one server never see each other's rows.
 */
export function createTestDatabases(config: { databaseUrl: string | undefined }): TestDatabases {
  const state = createTestDatabasesState(config.databaseUrl);
  return {
    prepareDataDir: (driver) => prepareTestDataDir(state, driver),
    drivers: [
      { driver: "pglite", skip: false },
      {
        driver: "postgres",
        skip: config.databaseUrl
          ? false
          : "DATABASE_URL is not set: no PostgreSQL server to run this half on",
      },
    ],
    open: (driver, options = {}) =>
      driver === "pglite"
        ? openPgliteTestDatabase(state, options.migrated ?? true)
        : openPostgresTestDatabase(state.databaseUrl, options.migrated ?? true),
    async dispose() {
      rmSync(state.root, { recursive: true, force: true });
    },
  };
}
