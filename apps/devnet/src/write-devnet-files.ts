import { mkdir, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { DevnetManifest } from "@hub/chain";
import type { Catalog } from "@hub/contract";

export interface DevnetFiles {
  manifestFile: string;
  catalogFile: string;
}

async function writeJsonAtomically(path: string, value: unknown): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, path);
}

/** Writes `<dataDir>/devnet/manifest.json` and `catalog.json`; a reader never sees a half-written file. */
export async function writeDevnetFiles(
  dataDir: string,
  manifest: DevnetManifest,
  catalog: Catalog,
): Promise<DevnetFiles> {
  const dir = join(dataDir, "devnet");
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const files = { manifestFile: join(dir, "manifest.json"), catalogFile: join(dir, "catalog.json") };
  await writeJsonAtomically(files.manifestFile, manifest);
  await writeJsonAtomically(files.catalogFile, catalog);
  return files;
}
