// The chain-family seam: outside Solana's own files (apps/hub/src/chains/solana/, or a file named
// solana-*.ts) only the lane table, the family table and the composition root should name Solana (issue
// 29's aim: 8 files or fewer). The ceiling holds what is reached; lower it as branches move behind the
// family table (apps/hub/src/chains/chain-families.ts), never raise it. The issue's own measure:
// grep -rli solana apps/hub/src --include=*.ts | grep -v /solana
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

const CEILING = 8;
const root = new URL("../../", import.meta.url).pathname;

/** Solana's own files: a path with a folder or file name that starts with `solana`. */
function solanaOwn(path: string): boolean {
  return path.split("/").some((part) => part.startsWith("solana"));
}

/** The hub's source files other than Solana's own that name Solana, sorted. */
export function filesNamingSolana(): string[] {
  return execFileSync("git", ["ls-files", "-z", "--", "apps/hub/src/*.ts"], { cwd: root, encoding: "utf8" })
    .split("\0")
    .filter((path) => path !== "" && !solanaOwn(path) && existsSync(join(root, path)))
    .filter((path) => /solana/i.test(readFileSync(join(root, path), "utf8")))
    .sort();
}

export async function check(): Promise<string[]> {
  const found = filesNamingSolana();
  if (found.length <= CEILING) return [];
  return [
    `${found.length} hub files other than Solana's own name Solana (ceiling ${CEILING}); put the branch behind the chain family: ${found.join(", ")}`,
  ];
}
