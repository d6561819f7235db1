#!/usr/bin/env node
// The `hub` command. After `npm run build` it runs the compiled JavaScript (each workspace's dist/, its
// `default` export), which needs neither tsx nor esbuild nor TypeScript: what production runs
// (scripts/production-image.sh). With the `source` condition on (`npm start`, `npm run hub` and
// `npm test` run node with --conditions=source), or in a checkout never built, it runs the TypeScript
// sources: `hub start` from a bundle of them cached in node_modules/.cache (start-bundle.js), or through
// tsx when the bundle cannot be made; every other verb through tsx (docs/decisions.md, "Compiled build").
import { readFileSync } from "node:fs";
import { register as registerHooks } from "node:module";

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

/**
 * `hub start` loads the third-party packages of the root package.json and of the apps it runs (the
 * hub's, and the devnet's unless HUB_DEVNET is off) first: from the build, before source maps are on,
 * so that only the hub's own maps are read; through tsx, before its hooks are registered, so that their
 * files (viem alone is hundreds) skip the hooks' thread, about 1 s of a start. yaml (only the OpenAPI
 * document's generator, never a start, uses it) is left out, and so are ioredis without REDIS_URL and
 * undici without the devnet (only the devnet's solver client calls through it); the admin verbs, which
 * load little, do not pay for it.
 */
async function preloadPackages() {
  const dependencies = (packageFile) =>
    Object.keys(JSON.parse(readFileSync(new URL(packageFile, import.meta.url), "utf8")).dependencies ?? {});
  const names = new Set([
    ...dependencies("../../../package.json"),
    ...dependencies("../../hub/package.json"),
    ...(devnet ? dependencies("../../devnet/package.json") : []),
  ]);
  names.delete("yaml");
  if (!process.env.REDIS_URL && !process.env.REDIS_URL_FILE) names.delete("ioredis");
  if (!devnet) names.delete("undici");
  await Promise.all([...names].map((name) => import(name)));
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
  if (start) await preloadPackages();
  process.setSourceMapsEnabled(true);
  await import("../dist/main.js");
} else {
  const bundle = start ? await startBundle() : undefined;
  if (bundle) {
    const { preload } = await import(bundle.preloadUrl);
    await preload(devnet ? [] : ["apps/devnet"]);
    process.setSourceMapsEnabled(true);
    const { runStart } = await import(bundle.url);
    await runStart(process.argv.slice(3));
  } else {
    if (start) await preloadPackages();
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
