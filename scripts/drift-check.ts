// Runs every drift check under scripts/drift/: each module exports `check(): Promise<string[]>`,
// returning one line per file out of step: it differs from what its generator would write now, or it
// breaks a rule the check holds (SQL outside the store modules).
import { readdirSync } from "node:fs";
import { join } from "node:path";

const dir = new URL("./drift/", import.meta.url).pathname;
const modules = readdirSync(dir)
  .filter((f) => f.endsWith(".ts"))
  .sort();
let problems = 0;
for (const file of modules) {
  const { check } = (await import(join(dir, file))) as { check: () => Promise<string[]> };
  const found = await check();
  for (const line of found) console.error(`drift: ${file}: ${line}`);
  problems += found.length;
  console.log(`${file}: ${found.length === 0 ? "in step" : `${found.length} out of step`}`);
}
if (modules.length === 0) console.log("no drift checks registered");
process.exit(problems === 0 ? 0 : 1);
