import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { migrationsDir } from "./migrations-dir.js";
import { createPgliteClient } from "./pglite-client.js";
import { loadMigrations, runMigrations } from "./run-migrations.js";

const PGLITE_VERSION = JSON.parse(
  readFileSync(
    join(fileURLToPath(import.meta.resolve("@electric-sql/pglite")), "../../package.json"),
    "utf8",
  ),
).version as string;

/**
 * Where `hub start` keeps its migrated template: `~/.cache/intent-hub/pglite-templates`, owner-only,
 * so no other user can plant a template that becomes someone's database.
 */
export function defaultPgliteTemplateCache(): string {
  return join(homedir(), ".cache", "intent-hub", "pglite-templates");
}

/**
 * A template dir under cache: built once under a temporary name and renamed into place, so readers
 * only ever copy a finished template, and never opened again after that.
 */
async function cachedTemplate(
  cache: string,
  name: string,
  build: (dir: string) => Promise<void>,
): Promise<string> {
  const dir = join(cache, name);
  if (existsSync(dir)) return dir;
  mkdirSync(cache, { recursive: true, mode: 0o700 });
  const building = join(cache, `${name}.building-${process.pid}-${randomBytes(4).toString("hex")}`);
  try {
    await build(building);
    renameSync(building, dir);
  } catch (error) {
    if (!existsSync(dir)) throw error;
  } finally {
    rmSync(building, { recursive: true, force: true });
    rmSync(`${building}.lock`, { force: true });
  }
  return dir;
}

/** Templates of older migration sets, untouched for an hour, are no longer copied by anyone. */
function pruneSupersededTemplates(cache: string, current: string): void {
  const hourAgoMs = Date.now() - 3600_000;
  for (const name of readdirSync(cache)) {
    const dir = join(cache, name);
    if (!/^migrated-[0-9a-f]+$/.test(name) || dir === current) continue;
    try {
      if (statSync(dir).mtimeMs < hourAgoMs) rmSync(dir, { recursive: true, force: true });
    } catch {
      // Removed by another process meanwhile.
    }
  }
}

/** A PGlite dir just past initdb, for this PGlite version (initdb alone costs seconds). */
export function emptyPgliteTemplate(cache: string): Promise<string> {
  return cachedTemplate(cache, `empty-${PGLITE_VERSION}`, async (dir) => {
    await (await createPgliteClient(dir)).close();
  });
}

/**
 * A PGlite dir with every migration applied, keyed by the PGlite version and the migrations' checksums,
 * so a copy opens with nothing pending. Built from the empty template the first time.
 */
export async function migratedPgliteTemplate(cache: string): Promise<string> {
  const migrations = loadMigrations(migrationsDir);
  const key = createHash("sha256")
    .update(PGLITE_VERSION)
    .update(migrations.map((m) => m.checksum).join(","))
    .digest("hex")
    .slice(0, 16);
  const empty = await emptyPgliteTemplate(cache);
  const migrated = await cachedTemplate(cache, `migrated-${key}`, async (dir) => {
    const client = await createPgliteClient(dir, { template: empty });
    try {
      await runMigrations(client, migrations);
    } finally {
      await client.close();
    }
  });
  pruneSupersededTemplates(cache, migrated);
  return migrated;
}
