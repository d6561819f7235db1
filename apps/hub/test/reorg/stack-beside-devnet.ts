import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type OnchainFill, onchainFillSchema, successEnvelopeSchema } from "@hub/contract";
import { pollUntil } from "@hub/test-support";
import { buildCatalog } from "../../../devnet/src/chains/build-catalog.js";
import { callApi } from "../hub-process.js";
import type { OrderDevnet } from "../reconciler-devnet.js";

const root = fileURLToPath(new URL("../../../../", import.meta.url));

/**
 * `hub start` with `HUB_DEVNET=0` beside devnet chains started by the test, so the chains outlive the
 * process: its gateway base URL and its operator listener (`/readyz`), from the ready line it logs.
 */
export interface StackBesideDevnet {
  readonly child: ChildProcess;
  readonly baseUrl: string;
  /** http://127.0.0.1:<METRICS_PORT> */
  readonly operator: string;
  /** Everything the process wrote so far (JSON log lines on stdout, then stderr). */
  output(): string;
  /** Ends the process with the signal and waits for its exit. */
  end(signal: NodeJS.Signals): Promise<void>;
}

/** The devnet chains' catalog (finality depth 2, deploy blocks) as a file the stack reads. */
export async function writeDevnetCatalog(devnet: OrderDevnet, dir: string): Promise<string> {
  const file = join(dir, "catalog.json");
  await writeFile(file, JSON.stringify(buildCatalog(devnet.manifest)));
  return file;
}

/**
 * The environment of a stack over the devnet's chains: the embedded database in dataDir unless
 * databaseUrl is given, Redis only when redisUrl is; random ports; JSON logs at info.
 */
export function stackEnv(options: {
  devnet: OrderDevnet;
  catalogFile: string;
  dataDir: string;
  databaseUrl?: string;
  redisUrl?: string;
  replicaId?: string;
  pollIntervalMs?: number;
}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HUB_DEVNET: "0",
    HUB_DATA_DIR: options.dataDir,
    HUB_CATALOG_FILE: options.catalogFile,
    HUB_CHAIN_RPC_URLS: options.devnet.manifest.chains
      .map((chain) => `${chain.chainDomain}=${chain.rpcUrl}`)
      .join(","),
    GATEWAY_PORT: "0",
    HUB_PORT: "0",
    DASHBOARD_PORT: "0",
    METRICS_PORT: "0",
    LOG_LEVEL: "info",
    LOG_FORMAT: "",
  };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  delete env.HUB_PROVIDERS_FILE;
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
  if (options.redisUrl) env.REDIS_URL = options.redisUrl;
  if (options.replicaId) env.HUB_REPLICA_ID = options.replicaId;
  return env;
}

/** Starts `hub start` with env; resolves once its ready line is out. */
export async function startStackBesideDevnet(env: NodeJS.ProcessEnv): Promise<StackBesideDevnet> {
  const child = spawn(process.execPath, ["apps/cli/bin/hub.js", "start"], {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const logDir = process.env.HUB_TEST_LOG_DIR;
  if (logDir) {
    const log = createWriteStream(join(logDir, `hub-${child.pid}.log`));
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
  }
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill(signal);
    await exited;
  };
  try {
    const banner = await pollUntil(
      "the stack's ready line",
      () => {
        if (child.exitCode !== null)
          throw new Error(`hub start exited ${child.exitCode}:\n${stdout}\n${stderr}`);
        for (const line of stdout.split("\n")) {
          if (!line.startsWith("{")) continue;
          const entry = JSON.parse(line) as { msg?: string; baseUrl?: string; metricsUrl?: string };
          if (entry.msg?.startsWith("ready in ")) return entry;
        }
        return undefined;
      },
      { timeoutMs: 120_000, intervalMs: 100 },
    );
    return {
      child,
      baseUrl: banner.baseUrl as string,
      operator: new URL(banner.metricsUrl as string).origin,
      output: () => `${stdout}\n${stderr}`,
      end,
    };
  } catch (error) {
    await end("SIGKILL");
    throw error;
  }
}

/** The operator listener's readiness report. */
export async function readinessOf(
  stack: StackBesideDevnet,
): Promise<{ status: number; body: { status: string; notReady: string[]; degraded?: string[] } }> {
  const response = await fetch(`${stack.operator}/readyz`);
  return { status: response.status, body: (await response.json()) as never };
}

/** GET /v1/onchain/{orderId}/fill through the stack's gateway, checked against the contract. */
export async function fillViewOf(baseUrl: string, key: string, orderId: string): Promise<OnchainFill> {
  const answer = await callApi(baseUrl, "GET", `/onchain/${orderId}/fill`, {
    headers: { "x-api-key": key, "x-service-subject": "reorg-user" },
  });
  if (answer.status !== 200)
    throw new Error(`fill view answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return successEnvelopeSchema(onchainFillSchema).parse(answer.body).data;
}
