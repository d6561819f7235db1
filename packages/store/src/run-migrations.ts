import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { SqlClient, SqlExecutor } from "./sql-client.js";

const MIGRATION_FILE = /^(\d{4})_([a-z0-9_]+)\.sql$/;

export interface Migration {
  version: number;
  name: string;
  sql: string;
  checksum: string;
}

export interface MigrationResult {
  /** Versions this call applied, in order. */
  applied: number[];
  /** The highest version now in the database. */
  current: number;
}

/** Reads `NNNN_name.sql` files from a folder, in version order; refuses gaps and duplicates. */
export function loadMigrations(dir: string): Migration[] {
  const migrations = readdirSync(dir)
    .filter((file) => file.endsWith(".sql"))
    .map((file) => {
      const match = MIGRATION_FILE.exec(file);
      if (!match?.[2]) throw new Error(`migration file ${file} is not named NNNN_name.sql`);
      const sql = readFileSync(join(dir, file), "utf8");
      return {
        version: Number(match[1]),
        name: match[2],
        sql,
        // Line endings are normalised so a checkout with CRLF does not read as an edited migration.
        checksum: createHash("sha256").update(sql.replace(/\r\n/g, "\n")).digest("hex"),
      };
    })
    .sort((a, b) => a.version - b.version);
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      const file = `${String(migration.version).padStart(4, "0")}_${migration.name}.sql`;
      throw new Error(
        `migration ${file}: expected version ${index + 1} here (versions run 1, 2, 3... with no gap or repeat)`,
      );
    }
  });
  return migrations;
}

async function lockSchemaMigrations(tx: SqlExecutor): Promise<void> {
  await tx.query("SELECT pg_advisory_xact_lock(hashtext('hub.schema_migrations.' || current_schema()))");
  await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version integer PRIMARY KEY,
    name text NOT NULL,
    checksum text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`);
}

/** Whether every migration is recorded with its file's checksum: read in one transaction, under the lock. */
async function allRecorded(client: SqlClient, migrations: readonly Migration[]): Promise<boolean> {
  const recorded = await client.transaction(async (tx) => {
    await lockSchemaMigrations(tx);
    return tx.query<{ version: number; checksum: string }>("SELECT version, checksum FROM schema_migrations");
  });
  const checksums = new Map(recorded.map((row) => [row.version, row.checksum]));
  return migrations.every((migration) => checksums.get(migration.version) === migration.checksum);
}

/**
 * Applies the migrations not yet recorded in schema_migrations, each in its own transaction.
 * A transaction-scoped advisory lock (keyed by the current schema) makes concurrent starts wait for
 * each other, and the check for an applied version happens under that lock, so each file runs once.
 * A recorded migration whose file changed since is refused: fix forward with a new file.
 * A database with every file recorded unchanged (every start but the first) is checked in one
 * transaction; anything else goes file by file.
 */
export async function runMigrations(
  client: SqlClient,
  migrations: readonly Migration[],
): Promise<MigrationResult> {
  const current = migrations.at(-1)?.version ?? 0;
  if (await allRecorded(client, migrations)) return { applied: [], current };
  const applied: number[] = [];
  for (const migration of migrations) {
    const ran = await client.transaction(async (tx) => {
      await lockSchemaMigrations(tx);
      const [existing] = await tx.query<{ checksum: string }>(
        "SELECT checksum FROM schema_migrations WHERE version = $1",
        [migration.version],
      );
      if (existing) {
        if (existing.checksum !== migration.checksum) {
          throw new Error(
            `migration ${migration.version}_${migration.name} was changed after it was applied; add a new migration instead`,
          );
        }
        return false;
      }
      await tx.exec(migration.sql);
      await tx.query("INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)", [
        migration.version,
        migration.name,
        migration.checksum,
      ]);
      return true;
    });
    if (ran) applied.push(migration.version);
  }
  return { applied, current };
}
