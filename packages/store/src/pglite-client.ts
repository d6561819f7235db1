import { existsSync, mkdirSync } from "node:fs";
import { cp, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { PGlite, type Transaction } from "@electric-sql/pglite";
import { acquireDirectoryLock } from "./directory-lock.js";
import type { SqlClient, SqlExecutor, SqlParam } from "./sql-client.js";

/**
 * PGlite's own start parameters with 16 MB of shared buffers instead of the data dir's 128 MB: the
 * wasm build zeroes the whole region at every open (about a second of a start's CPU at 128 MB), and
 * one process's working set fits (docs/performance.md, "Start to ready").
 */
const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB"];

function executor(db: PGlite | Transaction): SqlExecutor {
  return {
    async query<Row extends object>(text: string, params: readonly SqlParam[] = []): Promise<Row[]> {
      const result = await db.query<Row>(text, params as unknown[]);
      return result.rows;
    },
    async exec(text: string): Promise<void> {
      await db.exec(text);
    },
    // Inside a transaction the statement goes as any other (PGlite's transaction holds the protocol).
    async run(_name: string, text: string, params: readonly (string | null)[]): Promise<void> {
      await db.query(text, params as unknown[]);
    },
  };
}

/** A frontend message: its type byte, its length, its body. */
function message(type: string, parts: readonly Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const head = Buffer.allocUnsafe(5);
  head.write(type, 0, "latin1");
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

const cString = (text: string) => Buffer.from(`${text}\0`, "utf8");
const int16 = (n: number) => Buffer.from([(n >> 8) & 0xff, n & 0xff]);
function int32(n: number): Buffer {
  const bytes = Buffer.allocUnsafe(4);
  bytes.writeInt32BE(n, 0);
  return bytes;
}
const EXECUTE = message("E", [cString(""), int32(0)]);
const SYNC = message("S", []);

/**
 * Bind of text parameters to the named statement, Execute and Sync, written into one buffer: a quote's
 * row carries kilobytes of JSON, encoded here once instead of copied through a buffer per part.
 */
function bindExecuteSync(name: string, params: readonly (string | null)[]): Buffer {
  const lengths = params.map((value) => (value === null ? -1 : Buffer.byteLength(value, "utf8")));
  // Portal "", the statement's name, no format codes, the parameter count, each length and value, no result format codes.
  let bindLength = 4 + 1 + Buffer.byteLength(name, "utf8") + 1 + 2 + 2 + 2;
  for (const length of lengths) bindLength += 4 + Math.max(length, 0);
  const out = Buffer.allocUnsafe(1 + bindLength + EXECUTE.length + SYNC.length);
  out[0] = 0x42; // B
  let at = out.writeInt32BE(bindLength, 1);
  out[at++] = 0;
  at += out.write(name, at, "utf8");
  out[at++] = 0;
  at = out.writeInt16BE(0, at);
  at = out.writeInt16BE(params.length, at);
  lengths.forEach((length, i) => {
    at = out.writeInt32BE(length, at);
    const value = params[i];
    if (value !== null && value !== undefined) at += out.write(value, at, "utf8");
  });
  at = out.writeInt16BE(0, at);
  at += EXECUTE.copy(out, at);
  SYNC.copy(out, at);
  return out;
}

/** Parse (once per name), Bind of text parameters, Execute, Sync: one protocol call. */
function preparedRun(
  prepare: { name: string; text: string } | undefined,
  name: string,
  params: readonly (string | null)[],
): Uint8Array {
  const run = bindExecuteSync(name, params);
  if (prepare === undefined) return run;
  return Buffer.concat([message("P", [cString(prepare.name), cString(prepare.text), int16(0)]), run]);
}

/**
 * `run` on the client: PGlite's query sends Parse, Describe, Bind, Describe, Execute and Sync one call
 * each and parses and plans the text every time; a named statement is parsed once and then costs one
 * call (docs/performance.md). It waits for any transaction and query as query does; after a failure
 * the statement is closed, so the next run parses it afresh whatever step failed.
 */
function runPrepared(db: PGlite): SqlExecutor["run"] {
  const prepared = new Set<string>();
  return (name, text, params) =>
    db._runExclusiveTransaction(() =>
      db._runExclusiveQuery(async () => {
        const prepare = prepared.has(name) ? undefined : { name, text };
        try {
          await db.execProtocol(preparedRun(prepare, name, params), { throwOnError: true });
          prepared.add(name);
        } catch (error) {
          prepared.delete(name);
          await db.execProtocol(Buffer.concat([message("C", [Buffer.from("S"), cString(name)]), SYNC]), {
            throwOnError: false,
          });
          throw error;
        }
      }),
    );
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
    db = await PGlite.create(dir, { startParams: PGLITE_START_PARAMS });
  } catch (error) {
    lock.release();
    throw error;
  }
  const base = executor(db);
  return {
    driver: "pglite",
    query: base.query,
    exec: base.exec,
    run: runPrepared(db),
    transaction: (fn) => db.transaction((tx) => fn(executor(tx))),
    wasmMemoryBytes: () => db.Module.HEAPU8.buffer.byteLength,
    async close() {
      try {
        await db.close();
      } finally {
        lock.release();
      }
    },
  };
}
