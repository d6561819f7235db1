import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";

const packageDir = new URL("..", import.meta.url).pathname;
const outDir = mkdtempSync(join(tmpdir(), "hub-sdk-dist-"));
after(() => rmSync(outDir, { recursive: true, force: true }));

test("the published build needs nothing at runtime but fetch: no contract import, viem only in the viem entry", () => {
  execFileSync(process.execPath, ["--import", "tsx", join(packageDir, "scripts/build.ts"), outDir], { stdio: "pipe" });
  const manifest = JSON.parse(readFileSync(join(outDir, "package.json"), "utf8"));
  assert.deepEqual(Object.keys(manifest.exports), [".", "./viem"]);
  assert.equal(manifest.dependencies, undefined, "no runtime dependency");
  assert.equal(manifest.peerDependenciesMeta.viem.optional, true);
  for (const file of readdirSync(outDir).filter((name) => name.endsWith(".js"))) {
    const text = readFileSync(join(outDir, file), "utf8");
    const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)].map((m) => m[1]!);
    const outside = specifiers.filter((s) => !s.startsWith("./"));
    assert.deepEqual(outside, file === "viem.js" ? ["viem"] : [], `${file} imports ${outside.join(", ")}`);
  }
  // Loaded by plain Node from a folder with no node_modules above it: the contract cannot be found there.
  const loaded = execFileSync(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      `const sdk = await import(${JSON.stringify(join(outDir, "index.js"))});
       const error = new sdk.HubError({ code: "EIN0080", status: 400 });
       console.log(typeof sdk.createHubClient, error.block, await sdk.hubOrderIdOf("q"));`,
    ],
    { cwd: outDir, encoding: "utf8" },
  );
  assert.match(loaded, /^function busy [0-9a-f]{64}\n$/);
});
