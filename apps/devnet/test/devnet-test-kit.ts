import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DevnetAccount } from "@hub/chain";
import { pino } from "pino";
import { type Hex, maxUint256 } from "viem";
import { type ChainClients, createChainClients } from "../src/create-chain-clients.js";
import { createDevnet, type Devnet, type DevnetConfig } from "../src/create-devnet.js";

export interface TestDevnet extends Devnet {
  clients: ChainClients;
  /** JSON over HTTP to the devnet server; answers the status and the parsed body. */
  call<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
}

/** One devnet on free ports with a throw-away data dir, quiet logs and short poll intervals. */
export async function startTestDevnet(overrides: Partial<DevnetConfig> = {}): Promise<TestDevnet> {
  const dataDir = await mkdtemp(join(tmpdir(), "devnet-test-"));
  const devnet = await createDevnet({
    port: 0,
    rpcPorts: [0, 0],
    dataDir,
    pollIntervalMs: 50,
    logger: pino({ level: process.env.DEVNET_TEST_LOG_LEVEL ?? "silent" }),
    ...overrides,
  });
  return {
    ...devnet,
    clients: createChainClients(devnet.manifest),
    async call<T>(method: string, path: string, body?: unknown) {
      // The control API takes a POST only with a JSON body: `{}` stands for none.
      const json = body === undefined && method === "POST" ? {} : body;
      const response = await fetch(`${devnet.url}${path}`, {
        method,
        ...(json === undefined
          ? {}
          : { headers: { "content-type": "application/json" }, body: JSON.stringify(json) }),
      });
      const text = await response.text();
      return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
    },
    async stop() {
      try {
        await devnet.stop();
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  };
}

/** Pids of the live processes named `name` whose parent is `parentPid` (read from /proc). */
export async function childProcesses(parentPid: number, name: string): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, "utf8").catch(() => "");
    const match = /^(\d+) \((.*)\) (\S) (\d+)/.exec(stat);
    if (match && match[2] === name && match[3] !== "Z" && Number(match[4]) === parentPid)
      found.push(Number(match[1]));
  }
  return found;
}

/** True while the process exists and is not a zombie. */
export async function processAlive(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => undefined);
  return stat !== undefined && !/^\d+ \(.*\) Z /.test(stat);
}

export const erc20TestAbi = [
  {
    type: "function",
    name: "approve",
    stateMutability: "nonpayable",
    inputs: [
      { name: "spender", type: "address" },
      { name: "amount", type: "uint256" },
    ],
    outputs: [{ type: "bool" }],
  },
  {
    type: "function",
    name: "balanceOf",
    stateMutability: "view",
    inputs: [{ name: "account", type: "address" }],
    outputs: [{ type: "uint256" }],
  },
] as const;

export async function balanceOf(
  clients: ChainClients,
  chainId: number,
  token: `0x${string}`,
  account: `0x${string}`,
): Promise<bigint> {
  return clients.get(chainId).publicClient.readContract({
    address: token,
    abi: erc20TestAbi,
    functionName: "balanceOf",
    args: [account],
  });
}

/** Sends an ERC-20 approval as a wallet would and waits for it to be mined. */
export async function approve(
  clients: ChainClients,
  chainId: number,
  account: DevnetAccount,
  token: `0x${string}`,
  spender: `0x${string}`,
  amount: bigint = maxUint256,
): Promise<Hex> {
  const client = clients.get(chainId);
  const hash = await client.wallet(account).writeContract({
    address: token,
    abi: erc20TestAbi,
    functionName: "approve",
    args: [spender, amount],
  });
  await mined(clients, chainId, hash);
  return hash;
}

export async function mined(clients: ChainClients, chainId: number, hash: Hex) {
  const receipt = await clients
    .get(chainId)
    .publicClient.waitForTransactionReceipt({ hash, pollingInterval: 25 });
  if (receipt.status !== "success") throw new Error(`transaction ${hash} reverted`);
  return receipt;
}
