import { type DevnetChain, type DevnetManifest, type RunningAnvil, startAnvil } from "@hub/chain";
import { checkDevnetContracts, deployDevnetChain } from "./deploy-devnet-chain.js";
import {
  DEVNET_MNEMONIC,
  type DevnetAccounts,
  devnetAccountCount,
  devnetAccounts,
} from "./devnet-accounts.js";
import {
  defaultDevnetChainSnapshotCache,
  devnetChainSnapshotKey,
  discardDevnetChainSnapshot,
  findDevnetChainSnapshot,
  saveDevnetChainSnapshot,
} from "./devnet-chain-snapshots.js";
import { jsonRpcBatch } from "./json-rpc-batch.js";
import {
  type DevnetDeploymentPlan,
  devnetCommitteeThreshold,
  planDevnetDeployment,
} from "./plan-devnet-deployment.js";

export interface StartDevnetChainsOptions {
  /** One port per chain; 0 or absent picks a free port. */
  rpcPorts?: number[];
  /** Default [31337, 31338]. */
  chainIds?: number[];
  /** Interval mining after deployment; absent keeps automine (a block per transaction). */
  blockTimeSeconds?: number;
  /**
   * Where each chain's state right after the deployment is kept (default
   * `defaultDevnetChainSnapshotCache()`): a later start loads it into anvil instead of deploying again.
   * `false` deploys on every start. A cache that cannot be written or read only costs the deploy.
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
  const chainIds = options.chainIds ?? [31337, 31338];
  if (options.rpcPorts && options.rpcPorts.length !== chainIds.length) {
    throw new Error(`rpcPorts has ${options.rpcPorts.length} ports for ${chainIds.length} chains`);
  }
  const accounts = devnetAccounts();
  const plan = planDevnetDeployment(accounts);
  const cache = options.snapshotCache ?? defaultDevnetChainSnapshotCache();
  const settled = await Promise.allSettled(
    chainIds.map((chainId, i) =>
      startDevnetChain({ chainId, port: options.rpcPorts?.[i] ?? 0, accounts, plan, cache }),
    ),
  );
  const anvils: RunningAnvil[] = [];
  for (const result of settled) if (result.status === "fulfilled") anvils.push(result.value.anvil);
  const stop = async () => {
    await Promise.all(anvils.map((anvil) => anvil.stop()));
  };
  try {
    const failure = settled.find((result) => result.status === "rejected");
    if (failure) throw failure.reason;
    const chains = settled.map((result) => (result as PromiseFulfilledResult<StartedChain>).value.chain);
    if (options.blockTimeSeconds !== undefined) {
      await Promise.all(
        anvils.map((anvil) =>
          jsonRpcBatch(anvil.rpcUrl, [
            { method: "evm_setIntervalMining", params: [options.blockTimeSeconds] },
          ]),
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

interface StartedChain {
  anvil: RunningAnvil;
  chain: DevnetChain;
}

/**
 * One chain, from its snapshot when the cache holds a usable one, else deployed (and then kept in the
 * cache). Either way one empty block at the current time goes on top: the head's time is what a client
 * takes for the chain's now, and a snapshot's blocks carry the time it was taken.
 */
async function startDevnetChain(params: {
  chainId: number;
  port: number;
  accounts: DevnetAccounts;
  plan: DevnetDeploymentPlan;
  cache: string | false;
}): Promise<StartedChain> {
  const { chainId, port, accounts, plan, cache } = params;
  const anvilOptions = { chainId, port, accounts: devnetAccountCount, mnemonic: DEVNET_MNEMONIC };
  const key =
    cache === false
      ? undefined
      : devnetChainSnapshotKey(
          { chainId, mnemonic: DEVNET_MNEMONIC, accountCount: devnetAccountCount },
          plan,
        );
  const snapshot = cache !== false && key ? findDevnetChainSnapshot(cache, chainId, key) : undefined;
  if (snapshot) {
    const loaded = await startFromSnapshot(anvilOptions, snapshot.stateFile, accounts, plan).catch(
      () => undefined,
    );
    if (loaded) return { anvil: loaded, chain: devnetChain(loaded, chainId, plan, snapshot.deployBlock) };
  }
  const anvil = await startAnvil(anvilOptions);
  try {
    const chain = await deployDevnetChain({ rpcUrl: anvil.rpcUrl, chainId, accounts, plan });
    if (cache !== false && key) {
      // A state this anvil could not load (or that lacked the deployment) gives way to this deployment.
      if (snapshot) discardDevnetChainSnapshot(snapshot);
      await saveDevnetChainSnapshot(cache, chainId, key, anvil.rpcUrl, chain.deployBlock).catch(() => {
        // A read-only cache: the next start deploys again.
      });
    }
    await jsonRpcBatch(anvil.rpcUrl, [{ method: "evm_mine", params: [] }]);
    return { anvil, chain };
  } catch (error) {
    await anvil.stop();
    throw error;
  }
}

/** An anvil started from a snapshot, checked to hold the deployment, with its head at the current time. */
async function startFromSnapshot(
  anvilOptions: Parameters<typeof startAnvil>[0],
  stateFile: string,
  accounts: DevnetAccounts,
  plan: DevnetDeploymentPlan,
): Promise<RunningAnvil> {
  const anvil = await startAnvil({ ...anvilOptions, loadState: stateFile });
  try {
    const deployerTransactions = [...plan.deploys, ...plan.funding].filter(
      (tx) => tx.from.address === accounts.deployer.address,
    ).length;
    const [deployerNonce] = await jsonRpcBatch(anvil.rpcUrl, [
      { method: "eth_getTransactionCount", params: [accounts.deployer.address, "latest"] },
    ]);
    if (Number(deployerNonce) !== deployerTransactions) {
      throw new Error(
        `snapshot of chain ${anvilOptions.chainId}: the deployer sent ${Number(deployerNonce)}`,
      );
    }
    await checkDevnetContracts(anvil.rpcUrl, anvilOptions.chainId, plan.contracts);
    await jsonRpcBatch(anvil.rpcUrl, [{ method: "evm_mine", params: [] }]);
    return anvil;
  } catch (error) {
    await anvil.stop();
    throw error;
  }
}

function devnetChain(
  anvil: RunningAnvil,
  chainId: number,
  plan: DevnetDeploymentPlan,
  deployBlock: number,
): DevnetChain {
  return {
    chainDomain: `eip155:${chainId}`,
    chainId,
    rpcUrl: anvil.rpcUrl,
    contracts: plan.contracts,
    deployBlock,
  };
}
