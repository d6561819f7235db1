// SQL lives in store modules and migrations only: a tracked .ts file outside a store/ folder (and outside
// packages/store/) must not carry SQL text.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

const root = new URL("../../", import.meta.url).pathname;
const SQL = /\bSELECT\s|\bINSERT\s+INTO\b|\bUPDATE\s+[a-z_]+(\s+[a-z_]+)?\s+SET\b|\bDELETE\s+FROM\b/;

function inStore(path: string): boolean {
  return path.startsWith("packages/store/") || path.split("/").slice(0, -1).includes("store");
}

export async function check(): Promise<string[]> {
  const tracked = execFileSync("git", ["ls-files", "-z", "--", "*.ts"], { cwd: root, encoding: "utf8" })
    .split("\0")
    .filter((path) => path !== "" && !path.split("/").includes("node_modules") && !inStore(path));
  return tracked
    .filter((path) => existsSync(join(root, path)) && SQL.test(readFileSync(join(root, path), "utf8")))
    .map((path) => `${path} holds SQL: move it into a store module (a store/ folder)`);
}
