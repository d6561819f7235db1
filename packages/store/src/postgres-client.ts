import pg from "pg";
import type { SqlClient, SqlExecutor, SqlParam } from "./sql-client.js";

export interface PostgresClientConfig {
  connectionString: string;
  /** Sets search_path on every connection (one schema per test run). */
  schema?: string;
  maxConnections?: number;
}

function executor(db: pg.Pool | pg.PoolClient): SqlExecutor {
  return {
    async query<Row extends object>(text: string, params: readonly SqlParam[] = []): Promise<Row[]> {
      const result = await db.query<Row>(text, params as unknown[]);
      return result.rows;
    },
    async exec(text: string): Promise<void> {
      await db.query(text);
    },
    async run(name: string, text: string, params: readonly (string | null)[]): Promise<void> {
      await db.query({ name, text, values: params as (string | null)[] });
    },
  };
}

/** A PostgreSQL server through a pg pool. */
export function createPostgresClient(config: PostgresClientConfig): SqlClient {
  const pool = new pg.Pool({
    connectionString: config.connectionString,
    max: config.maxConnections ?? 10,
    ...(config.schema ? { options: `-c search_path=${config.schema}` } : {}),
  });
  // An idle connection dropped by the server must not crash the process; the next query reconnects.
  pool.on("error", () => {});
  const base = executor(pool);
  return {
    driver: "postgres",
    query: base.query,
    exec: base.exec,
    run: base.run,
    async transaction(fn) {
      const client = await pool.connect();
      let broken: Error | undefined;
      // A connection lost while the transaction holds it (between two statements) fails the
      // transaction and is discarded; unheard, pg's 'error' event would end the process.
      const lost = (error: Error) => {
        broken ??= error;
      };
      client.on("error", lost);
      try {
        await client.query("BEGIN");
        const result = await fn(executor(client));
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch((rollbackError: Error) => {
          broken = rollbackError;
        });
        throw error;
      } finally {
        // A connection that could not roll back is discarded, not returned to the pool.
        client.off("error", lost);
        client.release(broken);
      }
    },
    close: () => pool.end(),
  };
}
