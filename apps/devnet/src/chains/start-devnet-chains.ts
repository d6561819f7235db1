import { type DevnetManifest, type RunningAnvil, startAnvil } from "@hub/chain";
import { deployDevnetChain, devnetCommitteeThreshold } from "./deploy-devnet-chain.js";
import { DEVNET_MNEMONIC, devnetAccountCount, devnetAccounts } from "./devnet-accounts.js";

export interface StartDevnetChainsOptions {
  /** One port per chain; 0 or absent picks a free port. */
  rpcPorts?: number[];
  /** Default [31337, 31338]. */
  chainIds?: number[];
  /** Interval mining after deployment; absent keeps automine (a block per transaction). */
  blockTimeSeconds?: number;
}

export interface DevnetChains {
  manifest: DevnetManifest;
  /** Stops every anvil this call started. */
  stop(): Promise<void>;
}

/**
 * Starts one anvil per chain id, installs Permit2 and deploys and funds the devnet contracts on each.
 * Addresses and accounts are the same on every start (fixed mnemonic, fixed deploy order).
 */
export async function startDevnetChains(options: StartDevnetChainsOptions = {}): Promise<DevnetChains> {
  const chainIds = options.chainIds ?? [31337, 31338];
  if (options.rpcPorts && options.rpcPorts.length !== chainIds.length) {
    throw new Error(`rpcPorts has ${options.rpcPorts.length} ports for ${chainIds.length} chains`);
  }
  const started = chainIds.map((chainId, i) =>
    startAnvil({
      chainId,
      port: options.rpcPorts?.[i] ?? 0,
      accounts: devnetAccountCount,
      mnemonic: DEVNET_MNEMONIC,
    }),
  );
  const anvils: RunningAnvil[] = [];
  const stop = async () => {
    await Promise.all(anvils.map((anvil) => anvil.stop()));
  };
  try {
    const accounts = devnetAccounts();
    const settled = await Promise.allSettled(started);
    for (const result of settled) if (result.status === "fulfilled") anvils.push(result.value);
    const failure = settled.find((result) => result.status === "rejected");
    if (failure) throw failure.reason;
    const chains = await Promise.all(
      anvils.map((anvil, i) => deployDevnetChain({ rpcUrl: anvil.rpcUrl, chainId: chainIds[i]!, accounts })),
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
