#!/usr/bin/env node
// The `hub` command. After `npm run build` it runs the compiled JavaScript (each workspace's dist/, its
// `default` export), which needs neither tsx nor esbuild nor TypeScript: what production runs
// (scripts/production-image.sh). With the `source` condition on (`npm start`, `npm run hub` and
// `npm test` run node with --conditions=source), or in a checkout never built, it runs the TypeScript
// sources: `hub start` from a bundle of them cached in node_modules/.cache (start-bundle.js), or through
// tsx when the bundle cannot be made; every other verb through tsx (docs/decisions.md, "Compiled build").
import { existsSync } from "node:fs";
import { register as registerHooks } from "node:module";
import { preloadPackages } from "./preload-packages.js";

const start = process.argv[2] === "start";
const devnet = process.env.HUB_DEVNET !== "0" && process.env.HUB_DEVNET !== "false";

/** Where the workspace packages resolve: `built` (dist/), `source` (the condition is on) or `none`. */
function resolution() {
  try {
    return import.meta.resolve("@hub/cli-app").endsWith(".ts") ? "source" : "built";
  } catch {
    // The default export's file is missing: never built.
    return "none";
  }
}

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

const mode = resolution();
if (mode === "built") {
  if (start) await preloadPackages(devnet);
  process.setSourceMapsEnabled(true);
  // `npm run build` bundles the start's compiled modules: the same code, loaded from a few files.
  const bundle = new URL("../dist/start-bundle/start.js", import.meta.url);
  if (start && existsSync(bundle)) {
    const { runStart } = await import(bundle.href);
    await runStart(process.argv.slice(3));
  } else await import("../dist/main.js");
} else {
  const bundle = start ? await startBundle() : undefined;
  if (bundle) {
    const { preload } = await import(bundle.preloadUrl);
    await preload(devnet ? [] : ["apps/devnet"]);
    process.setSourceMapsEnabled(true);
    const { runStart } = await import(bundle.url);
    await runStart(process.argv.slice(3));
  } else {
    if (start) await preloadPackages(devnet);
    const { register } = await import("tsx/esm/api");
    register();
    // Never built and the condition off (`npx hub` in a development checkout): the workspace packages
    // resolve to their sources all the same.
    if (mode === "none")
      registerHooks(
        "data:text/javascript,export function resolve(specifier, context, next) {" +
          " return next(specifier, { ...context, conditions: [...context.conditions, 'source'] }); }",
      );
    await import("../src/main.ts");
  }
}
