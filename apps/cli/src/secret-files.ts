import { readFileSync } from "node:fs";

/** The variables that hold secrets; each can also be given as NAME_FILE, a file holding the value. */
export const secretVariables = [
  "DATABASE_URL",
  "REDIS_URL",
  "HUB_GATEWAY_SECRET",
  "HUB_CHAIN_RPC_URLS",
] as const;

/**
 * The environment with each NAME_FILE of a secret variable read into NAME (once, at start; a trailing
 * newline dropped, as `echo` and most secret stores write one), and the problems found: NAME and
 * NAME_FILE both set, a file that cannot be read, or one that is empty.
 */
export function readSecretFiles(
  env: Record<string, string | undefined>,
  read: (path: string) => string = (path) => readFileSync(path, "utf8"),
): { env: Record<string, string | undefined>; problems: string[] } {
  const resolved = { ...env };
  const problems: string[] = [];
  for (const name of secretVariables) {
    const path = env[`${name}_FILE`];
    if (path === undefined || path === "") continue;
    if (env[name] !== undefined && env[name] !== "") {
      problems.push(`${name}_FILE: ${name} is set too; give one of them`);
      continue;
    }
    let value: string;
    try {
      value = read(path).replace(/\r?\n$/, "");
    } catch (error) {
      problems.push(
        `${name}_FILE: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      );
      continue;
    }
    if (value === "") problems.push(`${name}_FILE: ${path} is empty`);
    else resolved[name] = value;
  }
  return { env: resolved, problems };
}
