import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { createTestDatabases, DirectoryInUseError, openStore } from "../src/index.js";

const databases = createTestDatabases({ databaseUrl: undefined });
after(() => databases.dispose());

test("an embedded database dir has one opener: a second open is refused while the first holds it", async () => {
  const target = await databases.prepareDataDir("pglite");
  const first = await openStore({ dataDir: target.dataDir });
  try {
    await assert.rejects(
      openStore({ dataDir: target.dataDir }),
      (error) => error instanceof DirectoryInUseError && error.holderPid === process.pid,
    );
  } finally {
    await first.close();
  }
  const again = await openStore({ dataDir: target.dataDir });
  await again.close();
  await target.dispose();
});

test("a lock left by a dead process is taken over", async () => {
  const target = await databases.prepareDataDir("pglite");
  const dead = spawnSync(process.execPath, ["-e", ""]).pid!;
  writeFileSync(join(target.dataDir, "pglite.lock"), String(dead));
  const store = await openStore({ dataDir: target.dataDir });
  assert.deepEqual(store.migrations.applied, []);
  await store.close();
  await target.dispose();
});

test("a new data dir and its embedded database folder are created owner-only (0700), the lock file 0600", async () => {
  const root = mkdtempSync(join(tmpdir(), "hub-store-modes-"));
  const dataDir = join(root, "fresh", "data");
  const store = await openStore({ dataDir });
  try {
    assert.equal(statSync(dataDir).mode & 0o777, 0o700);
    assert.equal(statSync(join(dataDir, "pglite")).mode & 0o777, 0o700);
    assert.equal(statSync(join(dataDir, "pglite.lock")).mode & 0o777, 0o600);
  } finally {
    await store.close();
    rmSync(root, { recursive: true, force: true });
  }
});
