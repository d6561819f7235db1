import { type ChildProcess, execFile, spawn } from "node:child_process";
import { createWriteStream, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { pollUntil } from "@hub/test-support";

const root = fileURLToPath(new URL("../../../", import.meta.url));

/** What the tests read of a running stack's dev.json. */
export interface DevFile {
  baseUrl: string;
  hubUrl: string;
  apiKey: string | null;
  dashboardSignInUrl: string | null;
}

/** A `hub start` in its own process, so SIGKILL is a real crash. */
export interface HubProcess {
  readonly child: ChildProcess;
  /** dev.json once the stack wrote a new one (another baseUrl than `previous`). */
  readonly ready: Promise<DevFile>;
  /** Everything the process wrote on stderr so far. */
  stderr(): string;
}

/** Starts `hub start` with env; ready resolves once its data dir's dev.json names another baseUrl than previous. */
export function startHubProcess(env: NodeJS.ProcessEnv, previous?: string): HubProcess {
  const dataDir = env.HUB_DATA_DIR;
  if (!dataDir) throw new Error("HUB_DATA_DIR is required");
  // HUB_TEST_LOG_DIR keeps each process's output (a failure under load is often not reproducible).
  const logDir = process.env.HUB_TEST_LOG_DIR;
  const child = spawn(process.execPath, ["apps/cli/bin/hub.js", "start"], {
    cwd: root,
    env,
    stdio: ["ignore", logDir ? "pipe" : "ignore", "pipe"],
  });
  if (logDir) {
    const log = createWriteStream(join(logDir, `hub-${child.pid}.log`));
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
  }
  let stderr = "";
  child.stderr?.on("data", (chunk) => {
    stderr += chunk;
  });
  const ready = pollUntil(
    "hub start writes dev.json",
    () => {
      if (child.exitCode !== null) throw new Error(`hub start exited ${child.exitCode}: ${stderr}`);
      try {
        const dev = JSON.parse(readFileSync(join(dataDir, "dev.json"), "utf8")) as DevFile;
        return dev.baseUrl !== previous ? dev : undefined;
      } catch {
        return undefined;
      }
    },
    { timeoutMs: 60_000, intervalMs: 100 },
  );
  return { child, ready, stderr: () => stderr };
}

/** Ends a hub process with the signal and waits for its exit. */
export async function endHubProcess(hub: HubProcess, signal: NodeJS.Signals): Promise<void> {
  if (hub.child.exitCode !== null || hub.child.signalCode !== null) return;
  const exited = new Promise((resolve) => hub.child.once("exit", resolve));
  hub.child.kill(signal);
  await exited;
}

/** `hub admin ARGS --json` against the running stack of env's data dir; the parsed answer. */
// biome-ignore lint/suspicious/noExplicitAny: the tests read the CLI output as loose JSON
export async function hubAdmin(env: NodeJS.ProcessEnv, ...args: string[]): Promise<any> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", "apps/cli/src/main.ts", "admin", ...args, "--json"],
    { cwd: root, env },
  );
  return JSON.parse(stdout);
}

/** A new organization and its secret key, made with `hub admin`. */
export async function createOrgWithKey(env: NodeJS.ProcessEnv, name: string) {
  const { organization } = await hubAdmin(env, "org", "create", "--name", name);
  const { apiKey } = await hubAdmin(env, "key", "create", "--org", organization.orgId);
  return { orgId: organization.orgId as string, key: apiKey.key as string, keyId: apiKey.keyId as string };
}

export interface Answer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: envelopes are read loosely, then parsed by the contract schemas
  body: any;
}

/** One call to a base URL (…/v1) with the given headers and JSON body. */
export async function callApi(
  baseUrl: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; json?: unknown } = {},
): Promise<Answer> {
  const { json } = options;
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...options.headers,
      ...(json === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: response.status, headers: response.headers, body };
}

/** An answer's outcome: `ok` for a success envelope, else its first code, or `HTTP <status>` without the envelope (a proxy's own page). */
export function codeOf(answer: Answer): string {
  const body = answer.body;
  if (typeof body !== "object" || body === null || typeof body.success !== "boolean")
    return `HTTP ${answer.status}`;
  return body.success ? "ok" : body.errors[0].error_code;
}
