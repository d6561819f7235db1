// Each of these builds a PGlite dir from scratch (initdb and the migrations, seconds in WASM): slow.
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { openStore } from "../src/index.js";

test("a new data dir starts as a copy of the cached migrated template: nothing pending, nothing shared", async () => {
  const root = mkdtempSync(join(tmpdir(), "hub-store-template-"));
  const pgliteTemplateCache = join(root, "cache");
  try {
    const first = await openStore({ dataDir: join(root, "a"), pgliteTemplateCache });
    assert.deepEqual(first.migrations.applied, [], "the template was migrated when it was built");
    assert.ok(first.migrations.current > 0);
    await first.sql.exec("CREATE TABLE only_in_a (x int)");
    await first.close();
    assert.ok(readdirSync(pgliteTemplateCache).some((name) => name.startsWith("migrated-")));

    const second = await openStore({ dataDir: join(root, "b"), pgliteTemplateCache });
    assert.deepEqual(second.migrations.applied, []);
    assert.equal(second.migrations.current, first.migrations.current);
    const [row] = await second.sql.query<{ table: string | null }>(
      "SELECT to_regclass('only_in_a') AS table",
    );
    assert.equal(row?.table, null, "a copy does not see another copy's writes");
    await second.close();
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("a template cache that cannot be written leaves a new data dir to initdb and the migrations", async () => {
  const root = mkdtempSync(join(tmpdir(), "hub-store-template-"));
  const pgliteTemplateCache = join(root, "not-a-folder");
  writeFileSync(pgliteTemplateCache, "");
  try {
    const store = await openStore({ dataDir: join(root, "data"), pgliteTemplateCache });
    assert.equal(store.migrations.applied.length, store.migrations.current, "every migration ran here");
    await store.close();
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
