import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

export interface StartAnvilOptions {
  /** Port to listen on; 0 or absent picks a free one. */
  port?: number;
  chainId: number;
  /** Seconds between blocks; absent means a block per transaction (automine). */
  blockTime?: number;
  /** Number of funded mnemonic accounts (anvil's default is 10). */
  accounts?: number;
  mnemonic?: string;
  /** Block gas limit (anvil's default is 30,000,000). */
  blockGasLimit?: bigint;
  /** How long to wait for the node to answer. */
  readyTimeoutMs?: number;
  /** A state file (`anvil_dumpState`, gunzipped) the node starts from instead of an empty chain. */
  loadState?: string;
}

export interface RunningAnvil {
  rpcUrl: string;
  port: number;
  pid: number;
  /** Stops the node and resolves once the process has exited. */
  stop(): Promise<void>;
}

const setprivPath = "/usr/bin/setpriv";

const platformPackages: Record<string, string> = {
  "linux-x64": "@foundry-rs/anvil-linux-amd64",
  "linux-arm64": "@foundry-rs/anvil-linux-arm64",
  "darwin-x64": "@foundry-rs/anvil-darwin-amd64",
  "darwin-arm64": "@foundry-rs/anvil-darwin-arm64",
};

/** Path of the anvil binary shipped inside the @foundry-rs/anvil platform package. */
export function anvilBinaryPath(): string {
  const pkg = platformPackages[`${process.platform}-${process.arch}`];
  if (!pkg) throw new Error(`no anvil package for ${process.platform}-${process.arch}`);
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve(`${pkg}/package.json`)), "bin", "anvil");
}

/** The version of the anvil binary anvilBinaryPath() runs (its platform package's). */
export function anvilVersion(): string {
  return JSON.parse(readFileSync(join(dirname(anvilBinaryPath()), "..", "package.json"), "utf8")).version;
}

/**
 * Starts an anvil node on 127.0.0.1, spawning the binary itself so the pid is the node's,
 * and resolves once it answers JSON-RPC.
 */
export async function startAnvil(options: StartAnvilOptions): Promise<RunningAnvil> {
  const args = [
    "--host",
    "127.0.0.1",
    "--port",
    String(options.port ?? 0),
    "--chain-id",
    String(options.chainId),
  ];
  if (options.blockTime !== undefined) args.push("--block-time", String(options.blockTime));
  if (options.accounts !== undefined) args.push("--accounts", String(options.accounts));
  if (options.mnemonic !== undefined) args.push("--mnemonic", options.mnemonic);
  if (options.blockGasLimit !== undefined) args.push("--gas-limit", options.blockGasLimit.toString());
  if (options.loadState !== undefined) args.push("--load-state", options.loadState);
  // setpriv sets the parent-death signal and then execs anvil (same pid), so a node killed with SIGKILL
  // (a crashed or timed-out test) leaves no anvil behind.
  const child = existsSync(setprivPath)
    ? spawn(setprivPath, ["--pdeathsig", "SIGKILL", anvilBinaryPath(), ...args], {
        stdio: ["ignore", "pipe", "pipe"],
      })
    : spawn(anvilBinaryPath(), args, { stdio: ["ignore", "pipe", "pipe"] });
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });
  const stop = async () => {
    process.removeListener("exit", killOnExit);
    // No pid: the process never started, so there is nothing to stop (and no exit event will come).
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 2000);
      await exited;
      clearTimeout(timer);
    }
  };
  try {
    const port = await waitForListening(child, options.readyTimeoutMs ?? 10_000);
    const rpcUrl = `http://127.0.0.1:${port}`;
    await waitForRpc(rpcUrl, options.chainId, options.readyTimeoutMs ?? 10_000);
    child.stdout?.resume();
    child.stderr?.resume();
    if (child.pid === undefined) throw new Error("anvil listens but has no pid");
    return { rpcUrl, port, pid: child.pid, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function waitForListening(child: ChildProcess, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(
      () => finish(new Error(`anvil did not listen within ${timeoutMs} ms: ${output}`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Listening on 127\.0\.0\.1:(\d+)/.exec(output);
      if (match) {
        stopWatching();
        resolve(Number(match[1]));
      }
    };
    const onExit = (code: number | null) =>
      finish(new Error(`anvil exited (${code}) before listening: ${output}`));
    const onError = (error: Error) => finish(new Error(`anvil could not start: ${error.message}`));
    const stopWatching = () => {
      clearTimeout(timer);
      child.stdout?.off("data", onData);
      child.stderr?.off("data", onData);
      child.off("exit", onExit);
      child.off("error", onError);
    };
    const finish = (error: Error) => {
      stopWatching();
      reject(error);
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", onExit);
    child.once("error", onError);
  });
}

async function waitForRpc(rpcUrl: string, chainId: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      });
      const body = (await response.json()) as { result?: string };
      if (body.result !== undefined && Number(body.result) === chainId) return;
      lastError = new Error(`eth_chainId answered ${JSON.stringify(body)}`);
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`anvil at ${rpcUrl} did not answer within ${timeoutMs} ms: ${String(lastError)}`);
}
