// The third-party packages `hub start` loads first (bin/hub.js), also imported by the production
// benchmark's anchor (bench/production.ts) so that it loads what the start loads.
import { readFileSync } from "node:fs";

/**
 * `hub start` loads the third-party packages of the root package.json and of the apps it runs (the
 * hub's, and the devnet's unless HUB_DEVNET is off) first: from the build, before source maps are on,
 * so that only the hub's own maps are read; through tsx, before its hooks are registered, so that their
 * files (viem alone is hundreds) skip the hooks' thread, about 1 s of a start. yaml (only the OpenAPI
 * document's generator, never a start, uses it) is left out, and so are ioredis without REDIS_URL and
 * undici without the devnet (only the devnet's solver client calls through it); the admin verbs, which
 * load little, do not pay for it.
 */
export async function preloadPackages(devnet, env = process.env) {
  const dependencies = (packageFile) =>
    Object.keys(JSON.parse(readFileSync(new URL(packageFile, import.meta.url), "utf8")).dependencies ?? {});
  const names = new Set([
    ...dependencies("../../../package.json"),
    ...dependencies("../../hub/package.json"),
    ...(devnet ? dependencies("../../devnet/package.json") : []),
  ]);
  names.delete("yaml");
  if (!env.REDIS_URL && !env.REDIS_URL_FILE) names.delete("ioredis");
  if (!devnet) names.delete("undici");
  await Promise.all([...names].map((name) => import(name)));
}
