import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createConnection } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";

const root = new URL("../../../", import.meta.url).pathname;
const dataDir = mkdtempSync(join(tmpdir(), "hub-start-"));
after(() => rmSync(dataDir, { recursive: true, force: true }));

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startStack(): Started {
  const child = spawn(process.execPath, ["--import", "tsx", "apps/cli/src/main.ts", "start"], {
    cwd: root,
    env: {
      ...process.env,
      HUB_DATA_DIR: dataDir,
      GATEWAY_PORT: "0",
      HUB_PORT: "0",
      DEVNET_PORT: "0",
      DEVNET_RPC_PORTS: "0,0",
      LOG_LEVEL: "warn",
      DATABASE_URL: "",
      REDIS_URL: "",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let text = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    text += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    text += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, output: () => text, exited };
}

async function waitFor(condition: () => boolean, what: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function answers(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = createConnection({ host: hostname, port: Number(port) });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

interface DevFile {
  baseUrl: string;
  hubUrl: string;
  devnetUrl: string;
  orgId: string;
  apiKey: string;
  projectId: string;
  allowedOrigin: string;
  chains: { chainDomain: string; chainId: number; rpcUrl: string }[];
  accounts: { address: string; privateKey: string }[];
}

let firstDev: DevFile;

test("hub start brings up the whole stack, writes dev.json once ready, and stops leaving no listener", async () => {
  const stack = startStack();
  try {
    await waitFor(() => /ready in \d+ ms/.test(stack.output()), "the ready line");
  } catch (error) {
    stack.child.kill("SIGTERM");
    throw new Error(`${(error as Error).message}\n${stack.output()}`);
  }
  const dev = JSON.parse(readFileSync(join(dataDir, "dev.json"), "utf8")) as DevFile;
  firstDev = dev;
  assert.match(dev.baseUrl, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  assert.match(dev.apiKey, /^svc_sk_[A-Za-z0-9_-]{43}$/);
  assert.match(dev.projectId, /^proj_[A-Za-z0-9]{24}$/);
  assert.equal(dev.chains.length, 2);
  assert.ok(dev.accounts.length > 0);
  for (const account of dev.accounts) assert.match(account.privateKey, /^0x[0-9a-f]{64}$/);

  const byKey = await fetch(`${dev.baseUrl}/catalog`, { headers: { "x-api-key": dev.apiKey } });
  assert.equal(byKey.status, 200);
  const catalog = (await byKey.json()) as {
    success: boolean;
    data: { families: { evm: { chainDomain: string }[] } };
  };
  assert.equal(catalog.success, true);
  assert.deepEqual(
    catalog.data.families.evm.map((chain) => chain.chainDomain).sort(),
    dev.chains.map((chain) => chain.chainDomain).sort(),
  );

  const byProject = await fetch(`${dev.baseUrl}/catalog`, {
    headers: { "x-project-id": dev.projectId, origin: dev.allowedOrigin },
  });
  assert.equal(byProject.status, 200);
  assert.equal(byProject.headers.get("access-control-allow-origin"), dev.allowedOrigin);

  const urls = [dev.baseUrl, dev.hubUrl, dev.devnetUrl, ...dev.chains.map((chain) => chain.rpcUrl)];
  for (const url of urls) assert.equal(await answers(url), true, `${url} answers while running`);

  stack.child.kill("SIGTERM");
  assert.equal(await stack.exited, 0);
  for (const url of urls) assert.equal(await answers(url), false, `${url} is closed after SIGTERM`);
});

test("a restart on the same data dir keeps the development organization, project and key", async () => {
  assert.ok(firstDev, "the first start ran");
  const stack = startStack();
  try {
    await waitFor(() => /ready in \d+ ms/.test(stack.output()), "the ready line");
    const dev = JSON.parse(readFileSync(join(dataDir, "dev.json"), "utf8")) as DevFile;
    assert.equal(dev.orgId, firstDev.orgId);
    assert.equal(dev.projectId, firstDev.projectId);
    assert.equal(dev.apiKey, firstDev.apiKey);
    const answer = await fetch(`${dev.baseUrl}/catalog`, { headers: { "x-api-key": dev.apiKey } });
    assert.equal(answer.status, 200);
  } finally {
    stack.child.kill("SIGTERM");
    await stack.exited;
  }
});
