import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";

const packageDir = new URL("..", import.meta.url).pathname;
const outDir = mkdtempSync(join(tmpdir(), "hub-sdk-dist-"));
after(() => rmSync(outDir, { recursive: true, force: true }));

test("the published build needs nothing at runtime but fetch: no contract import, viem only in the viem entry, @solana/kit only in the solana entry", () => {
  execFileSync(process.execPath, ["--import", "tsx", join(packageDir, "scripts/build.ts"), outDir], {
    stdio: "pipe",
  });
  const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
  assert.deepEqual(Object.keys(manifest.exports), [
    ".",
    "./viem",
    "./solana",
    "./wallet-standard",
    "./package.json",
  ]);
  for (const [subpath, conditions] of Object.entries(manifest.exports)) {
    if (subpath === "./package.json") continue;
    const { source, types, import: js } = conditions as Record<string, string>;
    // The workspace's own condition first (src/), then what a consumer resolves (dist/).
    assert.deepEqual(Object.keys(conditions as object), ["source", "types", "import"], subpath);
    assert.match(source!, /^\.\/src\/[\w-]+\.ts$/);
    for (const file of [types!, js!, `${js}.map`]) {
      assert.ok(existsSync(join(outDir, file.replace(/^\.\/dist\//, ""))), `${subpath}: ${file} is built`);
    }
  }
  assert.equal(manifest.dependencies, undefined, "no runtime dependency");
  assert.equal(manifest.sideEffects, false);
  assert.equal(manifest.license, "MIT");
  assert.equal(manifest.peerDependenciesMeta.viem.optional, true);
  assert.equal(manifest.peerDependenciesMeta["@solana/kit"].optional, true);
  const peers: Record<string, string[]> = {
    "viem.js": ["viem", "viem/actions"],
    "solana.js": ["@solana/kit"],
  };
  for (const file of readdirSync(outDir).filter((name) => name.endsWith(".js"))) {
    const text = readFileSync(join(outDir, file), "utf8");
    const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)].map((m) => m[1]!);
    const outside = specifiers.filter((s) => !s.startsWith("./"));
    assert.deepEqual(outside, peers[file] ?? [], `${file} imports ${outside.join(", ")}`);
  }
  for (const file of readdirSync(outDir).filter((name) => name.endsWith(".d.ts"))) {
    const text = readFileSync(join(outDir, file), "utf8");
    assert.doesNotMatch(text, /@hub\/contract|from "zod"/, `${file} needs no contract types`);
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

test("a consumer typechecks against the published declarations alone, with the wire types written out", () => {
  const consumer = join(outDir, "consumer.ts");
  writeFileSync(
    consumer,
    `import { createHubClient, HubError, type QuoteWinner, type UpstreamState } from "./index.js";
const client = createHubClient({ baseUrl: "http://127.0.0.1:1/v1", apiKey: "k", subject: "s" });
export async function lane(): Promise<QuoteWinner["lane"]> {
  const winner = await client.createQuote({ sourceAsset: "a", destinationAsset: "b", amount: "1", recipient: "r" });
  return winner.lane;
}
export const stop: UpstreamState[] = ["finalized", "failed", "refunded"];
// @ts-expect-error: "done" is no upstream state
export const wrong: UpstreamState = "done";
export const code = (error: HubError): string => error.code + error.block;
`,
  );
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  // Its own tsconfig: no @types, no node_modules: only what the package ships.
  writeFileSync(
    join(outDir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        noEmit: true,
        strict: true,
        module: "nodenext",
        target: "es2022",
        lib: ["es2023", "dom"],
        types: [],
      },
      files: ["consumer.ts"],
    }),
  );
  execFileSync(process.execPath, [tsc, "-p", outDir], { cwd: outDir, stdio: "pipe" });
});
