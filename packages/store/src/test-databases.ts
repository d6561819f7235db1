import { randomBytes } from "node:crypto";
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrationsDir } from "./migrations-dir.js";
import { createPgliteClient } from "./pglite-client.js";
import { emptyPgliteTemplate, migratedPgliteTemplate } from "./pglite-templates.js";
import { createPostgresClient } from "./postgres-client.js";
import { loadMigrations, runMigrations } from "./run-migrations.js";
import type { SqlClient } from "./sql-client.js";

export type TestDriver = "pglite" | "postgres";

export interface TestDatabase {
  readonly driver: TestDriver;
  /** Migrated unless asked otherwise. */
  readonly sql: SqlClient;
  /** The PGlite folder, or the PostgreSQL schema, this database lives in. */
  readonly location: string;
  /** Another client on the same database (PostgreSQL only: a PGlite dir has one opener). */
  openAnotherClient(): SqlClient;
  /** Closes the client and removes the folder or drops the schema. */
  dispose(): Promise<void>;
}

export interface PreparedDataDir {
  dataDir: string;
  databaseUrl: string | undefined;
  dispose(): Promise<void>;
}

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
  const root = mkdtempSync(join(tmpdir(), "hub-store-test-"));
  let template: Promise<{ migrated: string; empty: string }> | undefined;
  let counter = 0;

  const makeTemplate = async () => {
    const cache = join(tmpdir(), "hub-pglite-templates");
    const migrated = await migratedPgliteTemplate(cache);
    return { migrated, empty: await emptyPgliteTemplate(cache) };
  };

  const openPglite = async (migrated: boolean): Promise<TestDatabase> => {
    template ??= makeTemplate();
    const dirs = await template;
    const dir = join(root, `db-${++counter}`);
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
  };

  const openPostgres = async (migrated: boolean): Promise<TestDatabase> => {
    const connectionString = config.databaseUrl;
    if (!connectionString) throw new Error("DATABASE_URL is not set");
    const schema = `test_${randomBytes(8).toString("hex")}`;
    const admin = createPostgresClient({ connectionString, maxConnections: 1 });
    try {
      await admin.exec(`CREATE SCHEMA ${schema}`);
    } finally {
      await admin.close();
    }
    const others: SqlClient[] = [];
    const sql = createPostgresClient({ connectionString, schema });
    if (migrated) await runMigrations(sql, loadMigrations(migrationsDir));
    return {
      driver: "postgres",
      sql,
      location: schema,
      openAnotherClient() {
        const other = createPostgresClient({ connectionString, schema });
        others.push(other);
        return other;
      },
      async dispose() {
        await Promise.all(others.map((other) => other.close().catch(() => {})));
        await sql.exec(`DROP SCHEMA ${schema} CASCADE`);
        await sql.close();
      },
    };
  };

  const prepareDataDir = async (driver: TestDriver): Promise<PreparedDataDir> => {
    const dataDir = join(root, `data-${++counter}`);
    mkdirSync(dataDir, { recursive: true });
    if (driver === "pglite") {
      template ??= makeTemplate();
      cpSync((await template).migrated, join(dataDir, "pglite"), { recursive: true });
      return {
        dataDir,
        databaseUrl: undefined,
        async dispose() {
          rmSync(dataDir, { recursive: true, force: true });
        },
      };
    }
    const db = await openPostgres(true);
    await db.sql.close();
    const url = new URL(config.databaseUrl!);
    url.searchParams.set("options", `-c search_path=${db.location}`);
    return {
      dataDir,
      databaseUrl: url.toString(),
      async dispose() {
        const admin = createPostgresClient({ connectionString: config.databaseUrl!, maxConnections: 1 });
        try {
          await admin.exec(`DROP SCHEMA ${db.location} CASCADE`);
        } finally {
          await admin.close();
        }
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  };

  return {
    prepareDataDir,
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
      driver === "pglite" ? openPglite(options.migrated ?? true) : openPostgres(options.migrated ?? true),
    async dispose() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}
