/** Parameter values a statement accepts. Timestamps travel as ISO strings, arrays as JS arrays. */
export type SqlParam = string | number | boolean | null | readonly string[] | readonly number[];

/** What a statement runs on: the client itself, or one open transaction. */
export interface SqlExecutor {
  /** One statement with positional parameters ($1, $2, ...); resolves to its rows. */
  query<Row extends object = Record<string, unknown>>(
    text: string,
    params?: readonly SqlParam[],
  ): Promise<Row[]>;
  /** Several statements without parameters (migrations). */
  exec(text: string): Promise<void>;
  /**
   * One statement of a hot path whose text repeats, its rows unread: a named prepared statement,
   * parsed and planned once per connection and then only bound and executed. `name` stands for `text`
   * for the client's life; parameters are text or NULL.
   */
  run(name: string, text: string, params: readonly (string | null)[]): Promise<void>;
}

/**
 * The one seam between stores and a database: PGlite (embedded) or PostgreSQL (a pg pool).
 * Every store is written against this and the PostgreSQL dialect only.
 */
export interface SqlClient extends SqlExecutor {
  readonly driver: "pglite" | "postgres";
  /** Runs fn in one transaction: commit when it resolves, roll back when it throws. */
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** PGlite only: the bytes of its WebAssembly memory, which grows and never shrinks. */
  wasmMemoryBytes?(): number;
}
