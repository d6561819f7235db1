import { existsSync, mkdirSync } from "node:fs";
import { cp, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { PGlite, type Transaction } from "@electric-sql/pglite";
import { acquireDirectoryLock } from "./directory-lock.js";
import type { SqlClient, SqlExecutor, SqlParam } from "./sql-client.js";

function executor(db: PGlite | Transaction): SqlExecutor {
  return {
    async query<Row extends object>(text: string, params: readonly SqlParam[] = []): Promise<Row[]> {
      const result = await db.query<Row>(text, params as unknown[]);
      return result.rows;
    },
    async exec(text: string): Promise<void> {
      await db.exec(text);
    },
  };
}

/**
 * Opens (and on first use initialises) an embedded PostgreSQL in `dir`. Only one process may hold a
 * PGlite dir: a lock file beside it names the holder, and a second opener fails instead of corrupting it.
 * With `template`, a dir holding no database yet starts as a copy of that PGlite dir instead of
 * running initdb (seconds in WASM).
 */
export async function createPgliteClient(
  dir: string,
  options: { template?: string } = {},
): Promise<SqlClient> {
  // Owner only: PGlite writes its own files world-readable, so the folders are what keep them private.
  mkdirSync(dirname(dir), { recursive: true, mode: 0o700 });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const lock = acquireDirectoryLock(`${dir}.lock`);
  let db: PGlite;
  try {
    if (options.template && !existsSync(join(dir, "PG_VERSION"))) {
      // Copied on libuv's threads (40 MB), so a start's other work goes on meanwhile, and under
      // another name first, so a start killed mid-copy leaves no half database behind.
      const copying = `${dir}.copying`;
      await rm(copying, { recursive: true, force: true });
      await cp(options.template, copying, { recursive: true });
      await rename(copying, dir);
    }
    db = await PGlite.create(dir);
  } catch (error) {
    lock.release();
    throw error;
  }
  const base = executor(db);
  return {
    driver: "pglite",
    query: base.query,
    exec: base.exec,
    transaction: (fn) => db.transaction((tx) => fn(executor(tx))),
    async close() {
      try {
        await db.close();
      } finally {
        lock.release();
      }
    },
  };
}
