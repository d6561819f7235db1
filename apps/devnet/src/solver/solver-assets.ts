import {
  type DevnetChain,
  devnetErc20Abi,
  devnetUsdcAbi,
  encodeSolanaInteropAddress,
  solanaOifChainId,
} from "@hub/chain";
import { type Address, maxUint256 } from "viem";
import { encodeInteropAddress } from "../aggregator/interop-address.js";
import type { TokenDomain } from "./order-payloads.js";
import type { SolverState } from "./solver-state.js";

/** The assets a devnet solver bridges: each one to the same asset on another devnet chain. */
export const bridgedAssetKinds = ["usdc", "token", "wrappedNative"] as const;
export type BridgedAssetKind = (typeof bridgedAssetKinds)[number];

export interface SolverAssets {
  networks: Record<
    string,
    {
      /** A Solana chain's OIF chain id is 256 bits: a decimal string, as in solana-lane.md's witness. */
      chain_id: number | string;
      assets: { address: string; symbol: string; decimals: number }[];
    }
  >;
}

export function assetKindOf(chain: DevnetChain, address: string): BridgedAssetKind | undefined {
  return bridgedAssetKinds.find((k) => chain.contracts[k].toLowerCase() === address.toLowerCase());
}

export async function tokenDecimals(state: SolverState, chain: DevnetChain, token: Address): Promise<number> {
  const key = `${chain.chainId}:${token}`;
  const cached = state.tokenMeta.get(key)?.decimals ?? state.decimalsByToken.get(key);
  if (cached !== undefined) return cached;
  const decimals = await state.client(chain.chainId).publicClient.readContract({
    address: token,
    abi: devnetErc20Abi,
    functionName: "decimals",
  });
  state.decimalsByToken.set(key, decimals);
  return decimals;
}

export async function tokenDomain(
  state: SolverState,
  chain: DevnetChain,
  token: Address,
): Promise<TokenDomain> {
  const key = `${chain.chainId}:${token}`;
  const cached = state.tokenDomains.get(key);
  if (cached) return cached;
  const { publicClient } = state.client(chain.chainId);
  const [name, version] = await Promise.all([
    publicClient.readContract({ address: token, abi: devnetErc20Abi, functionName: "name" }),
    publicClient.readContract({ address: token, abi: devnetUsdcAbi, functionName: "version" }),
  ]);
  const domain = { name, version };
  state.tokenDomains.set(key, domain);
  return domain;
}

/** The solver's `/assets` answer: every bridged asset on every devnet chain, and Solana's mints. */
export async function solverAssets(state: SolverState): Promise<SolverAssets> {
  const { manifest } = state.config;
  const networks: SolverAssets["networks"] = {};
  for (const chain of manifest.chains) {
    const list = [];
    for (const kind of bridgedAssetKinds) {
      const address = chain.contracts[kind];
      const key = `${chain.chainId}:${address}`;
      let meta = state.tokenMeta.get(key);
      if (!meta) {
        const { publicClient } = state.client(chain.chainId);
        const [symbol, decimals] = await Promise.all([
          publicClient.readContract({ address, abi: devnetErc20Abi, functionName: "symbol" }),
          publicClient.readContract({ address, abi: devnetErc20Abi, functionName: "decimals" }),
        ]);
        meta = { symbol, decimals };
        state.tokenMeta.set(key, meta);
      }
      list.push({ address: encodeInteropAddress(chain.chainId, address), ...meta });
    }
    networks[String(chain.chainId)] = { chain_id: chain.chainId, assets: list };
  }
  const solana = manifest.solana;
  if (solana && (state.solanaFiller || state.solanaSource)) {
    const chainId = solanaOifChainId(solana.genesisHash).toString();
    networks[chainId] = {
      chain_id: chainId,
      assets: solana.tokens.map((token) => ({
        address: encodeSolanaInteropAddress(solana.genesisHash, token.mint),
        symbol: token.symbol,
        decimals: token.decimals,
      })),
    };
  }
  return { networks };
}

/** Lets every output settler pull each bridged token from the solver, once per chain and token. */
export async function approveOutputSettlers(state: SolverState): Promise<void> {
  for (const chain of state.config.manifest.chains) {
    const { publicClient, walletClient } = state.client(chain.chainId);
    for (const kind of bridgedAssetKinds) {
      const token = chain.contracts[kind];
      const allowance = await publicClient.readContract({
        address: token,
        abi: devnetErc20Abi,
        functionName: "allowance",
        args: [state.solverAddress, chain.contracts.outputSettler],
      });
      if (allowance > maxUint256 / 2n) continue;
      const hash = await walletClient.writeContract({
        address: token,
        abi: devnetErc20Abi,
        functionName: "approve",
        args: [chain.contracts.outputSettler, maxUint256],
      });
      const mined = await publicClient.waitForTransactionReceipt({ hash });
      if (mined.status !== "success") throw new Error(`approve of ${token} on ${chain.chainDomain} reverted`);
    }
  }
}
