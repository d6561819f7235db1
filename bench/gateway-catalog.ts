import type { Catalog } from "@hub/contract";

function address(n: number): string {
  return `0x${n.toString(16).padStart(40, "0")}`;
}

/** A catalog of the devnet's size for the benchmark: two EVM chains, their native coins and three tokens each. */
export function benchCatalog(): Catalog {
  const chain = (chainId: number, name: string): Catalog["families"]["evm"][number] => ({
    chainDomain: `eip155:${chainId}`,
    chainId,
    name,
    native: { symbol: "ETH", decimals: 18 },
    nativeKey: `eip155:${chainId}/slip44:60`,
    inputSettlers: { escrow: address(chainId * 16 + 1) },
    outputSettler: address(chainId * 16 + 2),
    inputOracle: address(chainId * 16 + 3),
    permit2: "0x000000000022d473030f116ddee9f6b43ac78ba3",
    assets: ["USDC", "USDT", "WBTC"].map((symbol, i) => ({
      key: `eip155:${chainId}/erc20:${address(chainId * 16 + 8 + i)}`,
      symbol,
      decimals: symbol === "WBTC" ? 8 : 6,
      address: address(chainId * 16 + 8 + i),
      authorizations: ["permit2", "eip3009"],
    })),
  });
  return { families: { evm: [chain(31337, "Devnet A"), chain(31338, "Devnet B")], solana: [] } };
}
