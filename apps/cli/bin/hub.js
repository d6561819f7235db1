#!/usr/bin/env node
// The `hub` command: runs the TypeScript entry point through tsx (there is no build step), except
// `hub start`, which runs from a bundle of its sources kept in node_modules/.cache (load-start-bundle.js).
import { readFileSync } from "node:fs";

async function startFromBundle() {
  const { loadStartBundle } = await import("./load-start-bundle.js");
  let bundle;
  try {
    bundle = await loadStartBundle();
  } catch (error) {
    process.stderr.write(
      `hub start runs through tsx: the start bundle could not be made (${error.message})\n`,
    );
    return false;
  }
  await import(bundle.packagesUrl);
  process.setSourceMapsEnabled(true);
  const { runStart } = await import(bundle.url);
  await runStart(process.argv.slice(3));
  return true;
}

if (process.argv[2] !== "start" || !(await startFromBundle())) {
  // `hub start` through tsx loads the root package.json's dependencies (the stack's third-party
  // packages but the devnet's Solana ones) before tsx's hooks are registered, so their files (viem
  // alone is hundreds) skip the hooks' thread. tsx itself is left out, and the admin verbs, which load
  // little, do not pay for it.
  if (process.argv[2] === "start") {
    const { dependencies } = JSON.parse(
      readFileSync(new URL("../../../package.json", import.meta.url), "utf8"),
    );
    await Promise.all(
      Object.keys(dependencies)
        .filter((name) => name !== "tsx")
        .map((name) => import(name)),
    );
  }
  const { register } = await import("tsx/esm/api");
  register();
  await import("../src/main.ts");
}
