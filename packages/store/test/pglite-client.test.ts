import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
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
