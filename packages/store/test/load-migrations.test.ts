import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { loadMigrations, migrationsDir } from "../src/index.js";

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "hub-migrations-"));
  for (const [name, sql] of Object.entries(files)) writeFileSync(join(dir, name), sql);
  return dir;
}

test("the package's migrations load in order, numbered 1, 2, 3... from 0001_access", () => {
  const migrations = loadMigrations(migrationsDir);
  assert.equal(migrations[0]?.name, "access");
  assert.deepEqual(
    migrations.map((m) => m.version),
    migrations.map((_, i) => i + 1),
  );
});

test("two files with one number, a gap, or a misnamed file stop the load with the file named", () => {
  const cases: Array<[Record<string, string>, RegExp]> = [
    [{ "0001_a.sql": "", "0002_b.sql": "", "0002_c.sql": "" }, /0002_c\.sql: expected version 3/],
    [{ "0001_a.sql": "", "0003_c.sql": "" }, /0003_c\.sql: expected version 2/],
    [{ "0001_a.sql": "", "2_b.sql": "" }, /2_b\.sql is not named NNNN_name\.sql/],
  ];
  for (const [files, message] of cases) {
    const dir = folder(files);
    try {
      assert.throws(() => loadMigrations(dir), message);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
});

test("a migration's checksum ignores CRLF versus LF line endings", () => {
  const lf = folder({ "0001_a.sql": "CREATE TABLE a (x int);\nCREATE TABLE b (y int);\n" });
  const crlf = folder({ "0001_a.sql": "CREATE TABLE a (x int);\r\nCREATE TABLE b (y int);\r\n" });
  try {
    assert.equal(loadMigrations(lf)[0]?.checksum, loadMigrations(crlf)[0]?.checksum);
  } finally {
    rmSync(lf, { recursive: true, force: true });
    rmSync(crlf, { recursive: true, force: true });
  }
});
