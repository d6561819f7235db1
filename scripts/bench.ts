// `npm run bench -- <name>...`: runs each named benchmark (bench/<name>.ts exporting `run()`) in turn
// and prints one JSON object with every result. With no name it lists the benchmarks.
import { readdirSync } from "node:fs";
import { join } from "node:path";

const dir = new URL("../bench/", import.meta.url).pathname;
const available = readdirSync(dir)
  .filter((f) => f.endsWith(".ts") && !f.includes("-"))
  .map((f) => f.slice(0, -3))
  .sort();
const names = process.argv.slice(2).filter((a) => !a.startsWith("--"));
if (names.length === 0) {
  console.log(`usage: npm run bench -- <name>...\navailable: ${available.join(", ")}`);
  process.exit(available.length === 0 ? 1 : 0);
}
const unknown = names.filter((n) => !available.includes(n));
if (unknown.length > 0) {
  console.error(`unknown benchmark: ${unknown.join(", ")} (available: ${available.join(", ")})`);
  process.exit(2);
}
// The hub runs in this process in most benchmarks: `npm run bench` gives node the flags `npm start` does.
const results: Record<string, unknown> = {
  node: { version: process.version, flags: process.execArgv, NODE_OPTIONS: process.env.NODE_OPTIONS ?? "" },
};
for (const name of names) {
  console.error(`bench ${name}: running`);
  const { run } = (await import(join(dir, `${name}.ts`))) as { run: () => Promise<unknown> };
  results[name] = await run();
}
console.log(JSON.stringify(results, null, 2));
process.exit(0);
