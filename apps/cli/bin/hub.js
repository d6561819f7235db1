#!/usr/bin/env node
// The `hub` command: runs the TypeScript entry point through tsx (there is no build step).
import { readFileSync } from "node:fs";
import { register } from "tsx/esm/api";

// `hub start` loads the root package.json's dependencies (the stack's third-party packages but the
// devnet's Solana ones). Loaded here, before tsx's hooks are registered, their files (viem alone is
// hundreds) skip the hooks' thread: about 1 s of a start. tsx itself is left out, and the admin
// verbs, which load little, do not pay for it.
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
register();
await import("../src/main.ts");
