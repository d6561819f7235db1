import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../../", import.meta.url));

export interface HubRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `hub ARGS` as its own process (node --import tsx apps/cli/src/main.ts) against one database. */
export function runHub(
  args: string[],
  target: { dataDir: string; databaseUrl: string | undefined },
): Promise<HubRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, HUB_DATA_DIR: target.dataDir };
  if (target.databaseUrl) env.DATABASE_URL = target.databaseUrl;
  else delete env.DATABASE_URL;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", "apps/cli/src/main.ts", ...args],
      { cwd: root, env, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** The one JSON object a `--json` run prints. */
// biome-ignore lint/suspicious/noExplicitAny: the tests read the CLI output as loose JSON
export function jsonOf(run: HubRun): Record<string, any> {
  const lines = run.stdout.trim().split("\n");
  if (lines.length !== 1) throw new Error(`expected one JSON line, got:\n${run.stdout}\n${run.stderr}`);
  return JSON.parse(lines[0]!);
}
