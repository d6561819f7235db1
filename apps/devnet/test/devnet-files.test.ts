import assert from "node:assert/strict";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import type { DevnetManifest } from "@hub/chain";
import { writeDevnetFiles } from "../src/index.js";

test("the devnet's folder is created owner-only (0700) and its manifest and catalog are 0600", async () => {
  const root = mkdtempSync(join(tmpdir(), "hub-devnet-files-"));
  try {
    const dataDir = join(root, "data");
    const files = await writeDevnetFiles(dataDir, {} as DevnetManifest, {
      families: { evm: [], solana: [] },
    });
    assert.equal(statSync(join(dataDir, "devnet")).mode & 0o777, 0o700);
    assert.equal(statSync(files.manifestFile).mode & 0o777, 0o600);
    assert.equal(statSync(files.catalogFile).mode & 0o777, 0o600);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
