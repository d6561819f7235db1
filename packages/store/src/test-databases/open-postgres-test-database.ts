import { randomBytes } from "node:crypto";
import { migrationsDir } from "../migrations-dir.js";
import { createPostgresClient } from "../postgres-client.js";
import { loadMigrations, runMigrations } from "../run-migrations.js";
import type { SqlClient } from "../sql-client.js";
import type { TestDatabase } from "./test-database.js";

/** A new schema on the server, migrated unless asked otherwise. */
export async function openPostgresTestDatabase(
  connectionString: string | undefined,
  migrated: boolean,
): Promise<TestDatabase> {
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
}
