import { existsSync } from "node:fs";
import { join } from "node:path";
import { type AccessStore, createAccessStore } from "./access-store.js";
import { type AuditStore, createAuditStore } from "./audit-store.js";
import { createDashboardStore, type DashboardStore } from "./dashboard-store.js";
import { migrationsDir } from "./migrations-dir.js";
import { createPgliteClient } from "./pglite-client.js";
import { defaultPgliteTemplateCache, migratedPgliteTemplate } from "./pglite-templates.js";
import { createPostgresClient } from "./postgres-client.js";
import { loadMigrations, type MigrationResult, runMigrations } from "./run-migrations.js";
import type { SqlClient } from "./sql-client.js";
import { createUsageStore, type UsageStore } from "./usage-store.js";

export interface StoreConfig {
  /** A PostgreSQL server; unset uses the embedded PGlite under dataDir. */
  databaseUrl?: string;
  dataDir: string;
  /** Apply pending migrations on open (default true). */
  migrate?: boolean;
  /**
   * Where a new PGlite dir is copied from instead of being initialised and migrated: a migrated
   * template kept in this cache folder (default `defaultPgliteTemplateCache()`), built on first use.
   * `false` initialises in place. A cache that cannot be written is skipped the same way, and so is a
   * store opened with `migrate: false`.
   */
  pgliteTemplateCache?: string | false;
}

export interface Store {
  /** The shared client: later stores (quotes, orders, reservations, chain facts) are built on it. */
  readonly sql: SqlClient;
  readonly access: AccessStore;
  readonly audit: AuditStore;
  readonly usage: UsageStore;
  readonly dashboard: DashboardStore;
  /** What the open applied; `applied` is empty when migrate was false or nothing was pending. */
  readonly migrations: MigrationResult;
  close(): Promise<void>;
}

/** The embedded database's folder under a data dir. */
export function pgliteDir(dataDir: string): string {
  return join(dataDir, "pglite");
}

/** Wraps an open client: migrates it (unless told not to) and builds the stores on it. */
export async function createStore(sql: SqlClient, options: { migrate?: boolean } = {}): Promise<Store> {
  let migrations: MigrationResult = { applied: [], current: 0 };
  if (options.migrate !== false) {
    try {
      migrations = await runMigrations(sql, loadMigrations(migrationsDir));
    } catch (error) {
      await sql.close();
      throw error;
    }
  }
  return {
    sql,
    access: createAccessStore(sql),
    audit: createAuditStore(sql),
    usage: createUsageStore(sql),
    dashboard: createDashboardStore(sql),
    migrations,
    close: () => sql.close(),
  };
}

/** Opens PostgreSQL when databaseUrl is set, otherwise the embedded PGlite at `<dataDir>/pglite`. */
export async function openStore(config: StoreConfig): Promise<Store> {
  const migrate = config.migrate ?? true;
  // The template is migrated, so a store opened without migrating does not start from it.
  const cache = migrate ? (config.pgliteTemplateCache ?? defaultPgliteTemplateCache()) : false;
  const sql = config.databaseUrl
    ? createPostgresClient({ connectionString: config.databaseUrl })
    : await openPglite(pgliteDir(config.dataDir), cache);
  return createStore(sql, { migrate });
}

async function openPglite(dir: string, cache: string | false): Promise<SqlClient> {
  if (cache === false || existsSync(join(dir, "PG_VERSION"))) return createPgliteClient(dir);
  // A read-only or foreign cache leaves the dir to initdb and the migrations, as without a cache.
  const template = await migratedPgliteTemplate(cache).catch(() => undefined);
  return createPgliteClient(dir, template ? { template } : {});
}
