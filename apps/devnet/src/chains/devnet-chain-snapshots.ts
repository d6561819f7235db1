import { createHash, randomBytes } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { anvilVersion, permit2RuntimeBytecode } from "@hub/chain";
import type { Hex } from "viem";
import { jsonRpcBatch } from "./json-rpc-batch.js";
import type { DevnetDeploymentPlan } from "./plan-devnet-deployment.js";

/** A chain's state right after the devnet's deployment, as anvil dumps it, and where its deployment began. */
export interface DevnetChainSnapshot {
  dir: string;
  /** For anvil's `--load-state`. */
  stateFile: string;
  deployBlock: number;
}

/**
 * Where the devnet keeps its deployed chains' states: `~/.cache/intent-hub/anvil-states`, owner-only,
 * beside the PGlite templates.
 */
export function defaultDevnetChainSnapshotCache(): string {
  return join(homedir(), ".cache", "intent-hub", "anvil-states");
}

/**
 * Names one chain's deployment: anvil's version, the chain id, the accounts anvil makes, the deploy
 * script's own source and every transaction it sends (bytecode, constructor arguments, funding), so
 * any change to any of them makes a new one.
 */
export function devnetChainSnapshotKey(
  chain: { chainId: number; mnemonic: string; accountCount: number },
  plan: DevnetDeploymentPlan,
): string {
  const deployScript = readFileSync(
    new URL("../../src/chains/deploy-devnet-chain.ts", import.meta.url),
    "utf8",
  );
  const transactions = [...plan.deploys, ...plan.funding].map((tx) => ({
    from: tx.from.address,
    to: tx.to ?? null,
    data: tx.data,
    value: (tx.value ?? 0n).toString(),
    gas: tx.gas.toString(),
  }));
  return createHash("sha256")
    .update(
      JSON.stringify({
        anvil: anvilVersion(),
        ...chain,
        permit2: permit2RuntimeBytecode,
        deployScript,
        transactions,
      }),
    )
    .digest("hex")
    .slice(0, 24);
}

const snapshotName = (chainId: number, key: string) => `chain-${chainId}-${key}`;

/** The finished snapshot under cache for key, if there is one; its folder's time marks it as in use. */
export function findDevnetChainSnapshot(
  cache: string,
  chainId: number,
  key: string,
): DevnetChainSnapshot | undefined {
  const dir = join(cache, snapshotName(chainId, key));
  try {
    const { deployBlock } = JSON.parse(readFileSync(join(dir, "chain.json"), "utf8")) as {
      deployBlock: number;
    };
    const now = new Date();
    utimesSync(dir, now, now);
    return { dir, stateFile: join(dir, "state.json"), deployBlock };
  } catch {
    return undefined;
  }
}

/** Removes a snapshot anvil could not start from, so a new deployment can take its place. */
export function discardDevnetChainSnapshot(snapshot: DevnetChainSnapshot): void {
  try {
    rmSync(snapshot.dir, { recursive: true, force: true });
  } catch {
    // A cache that cannot be written keeps it: the next start deploys again.
  }
}

/**
 * Dumps a just-deployed chain into the cache under key. Written under a temporary name and renamed
 * into place, so two starts at once both succeed and a reader only ever finds a finished snapshot.
 */
export async function saveDevnetChainSnapshot(
  cache: string,
  chainId: number,
  key: string,
  rpcUrl: string,
  deployBlock: number,
): Promise<void> {
  const name = snapshotName(chainId, key);
  const dir = join(cache, name);
  if (existsSync(dir)) return;
  const [dump] = (await jsonRpcBatch(rpcUrl, [{ method: "anvil_dumpState", params: [] }])) as Hex[];
  if (dump === undefined) throw new Error(`devnet chain ${chainId}: anvil_dumpState answered nothing`);
  mkdirSync(cache, { recursive: true, mode: 0o700 });
  const building = join(cache, `${name}.building-${process.pid}-${randomBytes(4).toString("hex")}`);
  try {
    mkdirSync(building, { mode: 0o700 });
    writeFileSync(join(building, "state.json"), gunzipSync(Buffer.from(dump.slice(2), "hex")), {
      mode: 0o600,
    });
    writeFileSync(join(building, "chain.json"), JSON.stringify({ deployBlock }), { mode: 0o600 });
    renameSync(building, dir);
  } catch (error) {
    if (!existsSync(dir)) throw error;
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
  pruneSupersededSnapshots(cache, chainId, dir);
}

/**
 * Snapshots of this chain from other deployments, unused for an hour, are no longer loaded by anyone;
 * nor are the half-written ones of a start killed while it wrote.
 */
function pruneSupersededSnapshots(cache: string, chainId: number, current: string): void {
  const hourAgoMs = Date.now() - 3600_000;
  const pattern = new RegExp(`^chain-${chainId}-[0-9a-f]+(\\.building-.+)?$`);
  for (const name of readdirSync(cache)) {
    const dir = join(cache, name);
    if (!pattern.test(name) || dir === current) continue;
    try {
      if (statSync(dir).mtimeMs < hourAgoMs) rmSync(dir, { recursive: true, force: true });
    } catch {
      // Removed by another process meanwhile.
    }
  }
}
