import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { anvilVersion, permit2RuntimeBytecode } from "@hub/chain";
import type { Hex } from "viem";
import type { DevnetDeploymentPlan } from "./deploy-devnet-chain.js";
import { jsonRpcBatch } from "./json-rpc-batch.js";

/** A chain's state right after the devnet's deployment, as anvil dumps it, and what the deploy returned. */
export interface DevnetChainSnapshot {
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
 * Names one deployment's result: anvil's version, the chain id, the deploy script's own source and
 * every transaction it sends (bytecode, constructor arguments, funding), so any change makes a new one.
 */
export function devnetChainSnapshotKey(
  chainId: number,
  accountCount: number,
  plan: DevnetDeploymentPlan,
): string {
  const deployScript = readFileSync(new URL("./deploy-devnet-chain.ts", import.meta.url), "utf8");
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
        chainId,
        accountCount,
        permit2: permit2RuntimeBytecode,
        deployScript,
        transactions,
      }),
    )
    .digest("hex")
    .slice(0, 24);
}

/** The snapshot under cache for key, if one was finished. */
export function findDevnetChainSnapshot(cache: string, key: string): DevnetChainSnapshot | undefined {
  const dir = join(cache, `chain-${key}`);
  try {
    const { deployBlock } = JSON.parse(readFileSync(join(dir, "chain.json"), "utf8")) as {
      deployBlock: number;
    };
    return { stateFile: join(dir, "state.json"), deployBlock };
  } catch {
    return undefined;
  }
}

/**
 * Dumps a just-deployed chain into the cache under key. Written under a temporary name and renamed
 * into place, so two starts at once both succeed and a reader only ever finds a finished snapshot.
 */
export async function saveDevnetChainSnapshot(
  cache: string,
  key: string,
  rpcUrl: string,
  deployBlock: number,
): Promise<void> {
  const dir = join(cache, `chain-${key}`);
  if (existsSync(dir)) return;
  const [dump] = (await jsonRpcBatch(rpcUrl, [{ method: "anvil_dumpState", params: [] }])) as Hex[];
  mkdirSync(cache, { recursive: true, mode: 0o700 });
  const building = join(cache, `chain-${key}.building-${process.pid}-${randomBytes(4).toString("hex")}`);
  try {
    mkdirSync(building, { mode: 0o700 });
    writeFileSync(join(building, "state.json"), gunzipSync(Buffer.from(dump!.slice(2), "hex")), {
      mode: 0o600,
    });
    writeFileSync(join(building, "chain.json"), JSON.stringify({ deployBlock }), { mode: 0o600 });
    renameSync(building, dir);
  } catch (error) {
    if (!existsSync(dir)) throw error;
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
}
