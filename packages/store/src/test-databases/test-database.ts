import type { SqlClient } from "../sql-client.js";

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
