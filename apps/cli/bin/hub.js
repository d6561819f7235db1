#!/usr/bin/env node
// The `hub` command: runs the TypeScript entry point through tsx (there is no build step). `hub start`
// runs from a bundle of the same sources cached in node_modules/.cache (start-bundle.js), or through
// tsx when the bundle cannot be made.
import { readFileSync } from "node:fs";

const start = process.argv[2] === "start";
const devnet = process.env.HUB_DEVNET !== "0" && process.env.HUB_DEVNET !== "false";

/** The start bundle's entry, or undefined (and why, on stderr) to start through tsx. */
async function startBundle() {
  try {
    const { loadStartBundle, startBundleOptions } = await import("./start-bundle.js");
    return await loadStartBundle(startBundleOptions(process.env.HUB_START_BUNDLE_DIR));
  } catch (error) {
    const reason = String(error?.message ?? error).split("\n")[0];
    process.stderr.write(`hub start runs through tsx: the start bundle could not be made (${reason})\n`);
    return undefined;
  }
}

const bundle = start ? await startBundle() : undefined;
if (bundle) {
  // The third-party packages load before source maps are on, so that their own maps are not read.
  const { preload } = await import(bundle.preloadUrl);
  await preload(devnet ? [] : ["apps/devnet"]);
  process.setSourceMapsEnabled(true);
  const { runStart } = await import(bundle.url);
  await runStart(process.argv.slice(3));
} else {
  // Through tsx, `hub start` loads the third-party packages of the root package.json and of the apps it
  // runs (the hub's, and the devnet's unless HUB_DEVNET is off). Loaded here, before tsx's hooks are
  // registered, their files (viem alone is hundreds) skip the hooks' thread: about 1 s of a start. tsx
  // and esbuild are left out, and so are yaml (only the OpenAPI document's generator, never a start,
  // uses it) and ioredis without REDIS_URL; the admin verbs, which load little, do not pay for it.
  if (start) {
    const dependencies = (packageFile) =>
      Object.keys(JSON.parse(readFileSync(new URL(packageFile, import.meta.url), "utf8")).dependencies ?? {});
    const names = new Set([
      ...dependencies("../../../package.json"),
      ...dependencies("../../hub/package.json"),
      ...(devnet ? dependencies("../../devnet/package.json") : []),
    ]);
    names.delete("tsx");
    names.delete("esbuild");
    names.delete("yaml");
    if (!process.env.REDIS_URL) names.delete("ioredis");
    await Promise.all([...names].map((name) => import(name)));
  }
  const { register } = await import("tsx/esm/api");
  register();
  await import("../src/main.ts");
}
