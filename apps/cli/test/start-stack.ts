import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pollUntil } from "@hub/test-support";
import type { DevFile as StartDevFile } from "../src/start-command.js";

/** dev.json of a stack started with the devnet: every member is present. */
export type DevFile = { [K in keyof StartDevFile]: NonNullable<StartDevFile[K]> };

const root = new URL("../../../", import.meta.url).pathname;

/** `hub start` as its own process, on random ports and the embedded database, as `npm start` runs it. */
export interface Started {
  child: ChildProcess;
  /** stdout and stderr as they came. */
  output: () => string;
  /** stdout alone. */
  stdout: () => string;
  exited: Promise<number | null>;
}

/**
 * Logs are pretty (the banner's "ready in" line is what the tests wait for); `env` overrides any
 * variable, e.g. `LOG_LEVEL: "info"` to see the log lines.
 */
export function startStack(dataDir: string, env: Record<string, string> = {}): Started {
  const child = spawn(process.execPath, ["apps/cli/bin/hub.js", "start"], {
    cwd: root,
    env: {
      ...process.env,
      HUB_DATA_DIR: dataDir,
      GATEWAY_PORT: "0",
      HUB_PORT: "0",
      DEVNET_PORT: "0",
      DEVNET_RPC_PORTS: "0,0",
      DEVNET_SOLANA_RPC_PORT: "0",
      DASHBOARD_PORT: "0",
      METRICS_PORT: "0",
      LOG_LEVEL: "warn",
      LOG_FORMAT: "pretty",
      DATABASE_URL: "",
      REDIS_URL: "",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let text = "";
  let stdout = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    text += chunk.toString();
    stdout += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    text += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, output: () => text, stdout: () => stdout, exited };
}

/** Waits for the ready line; on a timeout stops the stack and fails with what it printed. */
export async function untilReady(stack: Started): Promise<void> {
  try {
    await pollUntil("the ready line", () => /ready in \d+ ms/.test(stack.output()), {
      timeoutMs: 90_000,
      intervalMs: 100,
    });
  } catch (error) {
    stack.child.kill("SIGTERM");
    throw new Error(`${(error as Error).message}\n${stack.output()}`);
  }
}

/** A started, ready stack with its dev.json, and one stop. */
export async function startReadyStack(
  dataDir: string,
): Promise<Started & { dev: DevFile; stop: () => Promise<void> }> {
  const stack = startStack(dataDir);
  await untilReady(stack);
  const dev = JSON.parse(readFileSync(join(dataDir, "dev.json"), "utf8")) as DevFile;
  return {
    ...stack,
    dev,
    stop: async () => {
      stack.child.kill("SIGTERM");
      await stack.exited;
    },
  };
}
