import { type DevnetChain, type DevnetManifest, type RunningAnvil, startAnvil } from "@hub/chain";
import {
  checkDevnetContracts,
  deployDevnetChain,
  devnetCommitteeThreshold,
  planDevnetDeployment,
} from "./deploy-devnet-chain.js";
import { jsonRpcBatch } from "./json-rpc-batch.js";
import { DEVNET_MNEMONIC, devnetAccountCount, devnetAccounts } from "./devnet-accounts.js";
import {
  defaultDevnetChainSnapshotCache,
  devnetChainSnapshotKey,
  findDevnetChainSnapshot,
  saveDevnetChainSnapshot,
} from "./devnet-chain-snapshots.js";

/** The devnet's EVM chains unless told otherwise. */
export const devnetChainIds: readonly number[] = [31337, 31338];

export interface StartDevnetChainsOptions {
  /** One port per chain; 0 or absent picks a free port. */
  rpcPorts?: number[];
  /** Default devnetChainIds. */
  chainIds?: readonly number[];
  /** Interval mining after deployment; absent keeps automine (a block per transaction). */
  blockTimeSeconds?: number;
  /**
   * Where each chain's state right after the deployment is kept (default
   * `defaultDevnetChainSnapshotCache()`): a later start loads it into anvil instead of deploying again.
   * `false` deploys on every start. A cache that cannot be written only costs the deploy.
   */
  snapshotCache?: string | false;
}

export interface DevnetChains {
  manifest: DevnetManifest;
  /** Stops every anvil this call started. */
  stop(): Promise<void>;
}

/**
 * Starts one anvil per chain id, installs Permit2 and deploys and funds the devnet contracts on each.
 * Addresses and accounts are the same on every start (fixed mnemonic, fixed deploy order). A chain
 * whose deployment is in the snapshot cache starts from that state instead: the same accounts, code,
 * storage, balances, nonces and blocks, without sending the deployment again.
 */
export async function startDevnetChains(options: StartDevnetChainsOptions = {}): Promise<DevnetChains> {
  const chainIds = options.chainIds ?? devnetChainIds;
  if (options.rpcPorts && options.rpcPorts.length !== chainIds.length) {
    throw new Error(`rpcPorts has ${options.rpcPorts.length} ports for ${chainIds.length} chains`);
  }
  const accounts = devnetAccounts();
  const plan = planDevnetDeployment(accounts);
  const cache = options.snapshotCache ?? defaultDevnetChainSnapshotCache();
  const keys = chainIds.map((chainId) => devnetChainSnapshotKey(chainId, devnetAccountCount, plan));
  const snapshots = keys.map((key) => (cache === false ? undefined : findDevnetChainSnapshot(cache, key)));
  const started = chainIds.map((chainId, i) =>
    startAnvil({
      chainId,
      port: options.rpcPorts?.[i] ?? 0,
      accounts: devnetAccountCount,
      mnemonic: DEVNET_MNEMONIC,
      ...(snapshots[i] ? { loadState: snapshots[i].stateFile } : {}),
    }),
  );
  const anvils: RunningAnvil[] = [];
  const stop = async () => {
    await Promise.all(anvils.map((anvil) => anvil.stop()));
  };
  try {
    const settled = await Promise.allSettled(started);
    for (const result of settled) if (result.status === "fulfilled") anvils.push(result.value);
    const failure = settled.find((result) => result.status === "rejected");
    if (failure) throw failure.reason;
    const chains = await Promise.all(
      anvils.map(async (anvil, i): Promise<DevnetChain> => {
        const chainId = chainIds[i]!;
        const snapshot = snapshots[i];
        if (snapshot) {
          await checkDevnetContracts(anvil.rpcUrl, chainId, plan.contracts);
          return {
            chainDomain: `eip155:${chainId}`,
            chainId,
            rpcUrl: anvil.rpcUrl,
            contracts: plan.contracts,
            deployBlock: snapshot.deployBlock,
          };
        }
        const chain = await deployDevnetChain({ rpcUrl: anvil.rpcUrl, chainId, accounts });
        if (cache !== false) {
          await saveDevnetChainSnapshot(cache, keys[i]!, anvil.rpcUrl, chain.deployBlock).catch(() => {
            // A read-only cache: the next start deploys again.
          });
        }
        return chain;
      }),
    );
    // One empty block at the current time on top of the deployment, snapshot or not: the head's time
    // is what a client takes for the chain's now, and a snapshot's blocks carry the time it was taken.
    await Promise.all(
      anvils.map((anvil) => jsonRpcBatch(anvil.rpcUrl, [{ method: "evm_mine", params: [] }])),
    );
    if (options.blockTimeSeconds !== undefined) {
      await Promise.all(
        anvils.map((anvil) =>
          fetch(anvil.rpcUrl, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({
              jsonrpc: "2.0",
              id: 1,
              method: "evm_setIntervalMining",
              params: [options.blockTimeSeconds],
            }),
          }),
        ),
      );
    }
    return {
      manifest: {
        chains,
        users: accounts.users,
        solvers: accounts.solvers,
        committee: { members: accounts.committee, threshold: devnetCommitteeThreshold },
        relayer: accounts.relayer,
        deployer: accounts.deployer,
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
