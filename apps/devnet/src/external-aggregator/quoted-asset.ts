import type { Catalog } from "@hub/contract";
import { getAddress } from "viem";

export interface ParsedAsset {
  chainDomain: string;
  chainId: number;
  address?: `0x${string}`;
}

export function parseAsset(key: string): ParsedAsset {
  const [chainDomain = "", asset = ""] = key.split("/");
  const chainId = Number(chainDomain.slice("eip155:".length));
  if (asset.startsWith("erc20:")) {
    return { chainDomain, chainId, address: getAddress(asset.slice("erc20:".length).toLowerCase()) };
  }
  return { chainDomain, chainId };
}

/** The catalog's chain and asset entry of a declared token; undefined for any other asset. */
export function declaredAsset(catalog: Catalog, asset: ParsedAsset) {
  const chain = catalog.families.evm.find((entry) => entry.chainId === asset.chainId);
  const entry = chain?.assets.find(
    (candidate) => candidate.address !== undefined && candidate.address === asset.address?.toLowerCase(),
  );
  return chain && entry ? { chain, asset: entry } : undefined;
}
