import { AggregatorError } from "./aggregator-error.js";
import type { AggregatorState, SolverEntry, SupportedAsset } from "./aggregator-state.js";

export type { SupportedAsset } from "./aggregator-state.js";

export interface SolverInfo {
  solverId: string;
  adapterId: "oif-v1";
  name?: string;
  description?: string;
  endpoint: string;
  status: "active" | "disabled";
  supportedAssets: { type: "assets"; assets: SupportedAsset[]; source: "autoDiscovered" };
  createdAt: string;
  lastSeen?: string;
}

export interface AggregatorHealth {
  status: "healthy" | "degraded";
  version: string;
  solvers: {
    total: number;
    active: number;
    inactive: number;
    healthy: number;
    unhealthy: number;
    healthDetails: Record<string, boolean>;
  };
  storage: { healthy: boolean; backend: "memory" };
}

export function solverOrThrow(state: AggregatorState, solverId: string): SolverEntry {
  const entry = state.solvers.get(solverId);
  if (!entry) throw new AggregatorError(404, "SOLVER_NOT_FOUND", `Solver not found: ${solverId}`);
  return entry;
}

async function refreshAssets(state: AggregatorState, entry: SolverEntry): Promise<boolean> {
  try {
    entry.assets = parseAssets(await entry.client.getAssets(AbortSignal.timeout(2000)));
    entry.lastSeen = state.iso();
    return true;
  } catch {
    return false;
  }
}

function solverInfo(entry: SolverEntry): SolverInfo {
  return {
    solverId: entry.config.solverId,
    adapterId: "oif-v1",
    ...(entry.config.name ? { name: entry.config.name } : {}),
    ...(entry.config.description ? { description: entry.config.description } : {}),
    endpoint: entry.client.endpoint(),
    status: "active",
    supportedAssets: { type: "assets", assets: entry.assets, source: "autoDiscovered" },
    createdAt: entry.createdAt,
    ...(entry.lastSeen ? { lastSeen: entry.lastSeen } : {}),
  };
}

/** One page of the solvers, each with its assets asked again. */
export async function listSolvers(
  state: AggregatorState,
  page: number,
  pageSize: number,
): Promise<{ solvers: SolverInfo[]; totalSolvers: number }> {
  const all = [...state.solvers.values()];
  const slice = all.slice((page - 1) * pageSize, page * pageSize);
  await Promise.all(slice.map((entry) => refreshAssets(state, entry)));
  return { solvers: slice.map(solverInfo), totalSolvers: all.length };
}

export async function getSolver(state: AggregatorState, solverId: string): Promise<SolverInfo> {
  const entry = solverOrThrow(state, solverId);
  await refreshAssets(state, entry);
  return solverInfo(entry);
}

/** Healthy when every solver answers its assets. */
export async function aggregatorHealth(state: AggregatorState): Promise<AggregatorHealth> {
  const details: Record<string, boolean> = {};
  await Promise.all(
    [...state.solvers.values()].map(async (entry) => {
      details[entry.config.solverId] = await refreshAssets(state, entry);
    }),
  );
  const healthy = Object.values(details).filter(Boolean).length;
  return {
    status: healthy === state.solvers.size ? "healthy" : "degraded",
    version: "0.1.0",
    solvers: {
      total: state.solvers.size,
      active: state.solvers.size,
      inactive: 0,
      healthy,
      unhealthy: state.solvers.size - healthy,
      healthDetails: details,
    },
    storage: { healthy: true, backend: "memory" },
  };
}

function parseAssets(body: unknown): SupportedAsset[] {
  const networks = (body as { networks?: Record<string, { chain_id?: number | string; assets?: unknown[] }> })
    ?.networks;
  if (!networks) return [];
  const assets: SupportedAsset[] = [];
  for (const network of Object.values(networks)) {
    for (const raw of network.assets ?? []) {
      const asset = raw as { address?: string; symbol?: string; name?: string; decimals?: number };
      if (!asset.address || network.chain_id === undefined) continue;
      assets.push({
        address: asset.address,
        chainId: network.chain_id,
        symbol: asset.symbol ?? "",
        name: asset.name ?? asset.symbol ?? "",
        decimals: asset.decimals ?? 18,
      });
    }
  }
  return assets;
}
