// Runs every test file through node's test runner. `--fast` leaves out suites tagged slow
// (`*.slow.test.ts`). Backing services: DATABASE_URL and REDIS_URL are taken from the environment,
// or set to the machine's local servers when those answer; CI=true makes a missing one an error.
import { spawn } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { createConnection } from "node:net";
import { join, relative } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const args = process.argv.slice(2);
const fast = args.includes("--fast");
const filters = args.filter((a) => !a.startsWith("--"));

function findTests(dir: string, found: string[]): string[] {
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name.startsWith(".")) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) findTests(path, found);
    else if (name.endsWith(".test.ts")) found.push(path);
  }
  return found;
}

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port });
    socket.setTimeout(1000);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
  });
}

const env = { ...process.env };
// The workspace packages resolve to their TypeScript sources (their `source` export), in the test files
// and in every process they start (docs/decisions.md, "Compiled build").
if (!/--conditions=source\b/.test(env.NODE_OPTIONS ?? ""))
  env.NODE_OPTIONS = `${env.NODE_OPTIONS ?? ""} --conditions=source`.trim();
if (!env.DATABASE_URL && (await answers(5432))) env.DATABASE_URL = "postgres://postgres@127.0.0.1:5432/test";
if (!env.REDIS_URL && (await answers(6379))) env.REDIS_URL = "redis://127.0.0.1:6379";
for (const name of ["DATABASE_URL", "REDIS_URL"]) {
  if (env[name]) continue;
  if (env.CI === "true") {
    console.error(`${name} is not set and no local server answers: CI needs both PostgreSQL and Redis`);
    process.exit(1);
  }
  console.warn(`${name} not set and no local server answers: suites that need it will report as skipped`);
}

const files = ["packages", "apps", "examples"]
  .flatMap((top) => findTests(join(root, top), []))
  .filter((f) => !(fast && f.endsWith(".slow.test.ts")))
  .filter((f) => filters.length === 0 || filters.some((needle) => f.includes(needle)))
  // The slow suites first: with two files at a time, a long suite that starts last holds the run open
  // alone at its end; started first, the short files fill the other slot around it.
  .sort(
    (a, b) => Number(b.endsWith(".slow.test.ts")) - Number(a.endsWith(".slow.test.ts")) || a.localeCompare(b),
  );
if (files.length === 0) {
  console.error("no test files matched");
  process.exit(1);
}
console.log(`running ${files.length} test files${fast ? " (slow suites left out)" : ""}`);
for (const f of files) console.log(`  ${relative(root, f)}`);

const child = spawn(
  process.execPath,
  [
    "--conditions=source",
    "--import",
    "tsx",
    "--test",
    "--test-concurrency=2",
    "--test-reporter=spec",
    "--test-reporter-destination=stdout",
    `--test-reporter=${join(root, "scripts/test-durations-reporter.mjs")}`,
    "--test-reporter-destination=stdout",
    ...files,
  ],
  { cwd: root, env, stdio: "inherit" },
);
child.on("exit", (code, signal) => process.exit(signal ? 1 : (code ?? 1)));
