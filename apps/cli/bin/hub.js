#!/usr/bin/env node
// The `hub` command: runs the TypeScript entry point through tsx (there is no build step).
import { readFileSync } from "node:fs";
import { register } from "tsx/esm/api";

// `hub start` loads the third-party packages of the root package.json and of the apps it runs (the
// hub's, and the devnet's unless HUB_DEVNET is off). Loaded here, before tsx's hooks are registered,
// their files (viem alone is hundreds) skip the hooks' thread: about 1 s of a start. tsx itself is
// left out, and so are yaml (only the OpenAPI document's generator, never a start, uses it) and
// ioredis without REDIS_URL; the admin verbs, which load little, do not pay for it.
if (process.argv[2] === "start") {
  const dependencies = (packageFile) =>
    Object.keys(JSON.parse(readFileSync(new URL(packageFile, import.meta.url), "utf8")).dependencies ?? {});
  const devnet = process.env.HUB_DEVNET !== "0" && process.env.HUB_DEVNET !== "false";
  const names = new Set([
    ...dependencies("../../../package.json"),
    ...dependencies("../../hub/package.json"),
    ...(devnet ? dependencies("../../devnet/package.json") : []),
  ]);
  names.delete("tsx");
  names.delete("yaml");
  if (!process.env.REDIS_URL) names.delete("ioredis");
  await Promise.all([...names].map((name) => import(name)));
}
register();
await import("../src/main.ts");
