import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { pollUntil } from "@hub/test-support";
import { childProcesses, processAlive } from "./devnet-test-kit.js";

const root = new URL("../../..", import.meta.url).pathname;

interface RunningMain {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startMain(dataDir: string): RunningMain {
  const child = spawn(process.execPath, ["--import", "tsx", "apps/devnet/src/main.ts"], {
    cwd: root,
    env: {
      ...process.env,
      DEVNET_PORT: "0",
      DEVNET_RPC_PORTS: "0,0",
      DEVNET_RPC_FAULT_PORTS: "0,0",
      DEVNET_SOLANA_RPC_PORT: "0",
      HUB_DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, output: () => output, exited };
}

describe("devnet main", () => {
  const started: RunningMain[] = [];
  const dirs: string[] = [];
  after(async () => {
    for (const run of started)
      if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill("SIGKILL");
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  async function freshDir(): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), "devnet-main-"));
    dirs.push(dir);
    return dir;
  }

  test("main prints a ready line, serves /healthz, and on SIGTERM exits 0 with no anvil left running", async (t) => {
    const dataDir = await freshDir();
    const run = startMain(dataDir);
    started.push(run);
    const ready = await pollUntil(
      "the ready line",
      async () => {
        if (run.child.exitCode !== null)
          throw new Error(`main exited ${run.child.exitCode}: ${run.output()}`);
        return /devnet ready in (\d+) ms at (\S+)/.exec(run.output());
      },
      { timeoutMs: 60_000 },
    );
    t.diagnostic(`main reported ready in ${ready[1]} ms`);
    const url = ready[2]!;
    assert.equal((await fetch(`${url}/healthz`)).status, 200);
    await stat(join(dataDir, "devnet", "manifest.json"));
    await stat(join(dataDir, "devnet", "catalog.json"));
    const anvils = await childProcesses(run.child.pid!, "anvil");
    assert.equal(anvils.length, 2, run.output());
    const solanaRpcUrl = /^chain solana:\S+ (\S+)$/m.exec(run.output())?.[1];
    assert.ok(solanaRpcUrl, run.output());
    assert.equal(await (await fetch(`${solanaRpcUrl}/health`)).text(), "ok");

    run.child.kill("SIGTERM");
    assert.equal(await run.exited, 0, run.output());
    await assert.rejects(fetch(`${solanaRpcUrl}/health`), "the Solana RPC server is closed");
    for (const pid of anvils) assert.equal(await processAlive(pid), false, `anvil ${pid} still running`);
  });

  test("SIGINT while the chains are still starting stops them too", async () => {
    const run = startMain(await freshDir());
    started.push(run);
    const anvils = await pollUntil(
      "the chain nodes to be spawned",
      async () => {
        const found = await childProcesses(run.child.pid!, "anvil");
        return found.length === 2 ? found : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 10 },
    );
    run.child.kill("SIGINT");
    // 0 when start-up completed and was then stopped; 1 if start-up itself failed (its cleanup ran).
    assert.ok([0, 1].includes((await run.exited) ?? -1), run.output());
    for (const pid of anvils) assert.equal(await processAlive(pid), false, `anvil ${pid} still running`);
  });
});
