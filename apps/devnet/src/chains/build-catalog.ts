import {
  type DevnetChain,
  type DevnetManifest,
  type DevnetSolanaChain,
  devnetFinalityDepth,
  solanaOifChainId,
} from "@hub/chain";
import type { Catalog, CatalogChain, CatalogSolanaChain } from "@hub/contract";

function erc20Key(chainId: number, address: string): string {
  return `eip155:${chainId}/erc20:${address.toLowerCase()}`;
}

function catalogChain(chain: DevnetChain, index: number): CatalogChain {
  const { chainId, contracts } = chain;
  const lower = (address: string) => address.toLowerCase();
  return {
    chainDomain: chain.chainDomain,
    chainId,
    name: `Devnet ${String.fromCharCode(65 + index)}`,
    native: { symbol: "ETH", decimals: 18 },
    nativeKey: `eip155:${chainId}/slip44:60`,
    wrappedKey: erc20Key(chainId, contracts.wrappedNative),
    swapRouter: lower(contracts.swapRouter),
    userProxy: lower(contracts.userProxy),
    bridge: lower(contracts.bridge),
    inputSettlers: { escrow: lower(contracts.inputSettlerEscrow) },
    outputSettler: lower(contracts.outputSettler),
    inputOracle: lower(contracts.committeeOracle),
    permit2: lower(contracts.permit2),
    deployBlock: chain.deployBlock,
    finality: { depth: devnetFinalityDepth },
    assets: [
      {
        key: erc20Key(chainId, contracts.usdc),
        symbol: "USDC",
        decimals: 6,
        address: lower(contracts.usdc),
        authorizations: ["permit2", "eip3009", "eip2612"],
      },
      {
        key: erc20Key(chainId, contracts.token),
        symbol: "TKN",
        decimals: 18,
        address: lower(contracts.token),
        authorizations: ["permit2"],
      },
      {
        key: erc20Key(chainId, contracts.wrappedNative),
        symbol: "WETH",
        decimals: 18,
        address: lower(contracts.wrappedNative),
        authorizations: ["permit2"],
      },
    ],
  };
}

/** The catalog the hub serves for the devnet: every chain and declared asset (never the undeclared token). */
export function buildCatalog(manifest: DevnetManifest): Catalog {
  return {
    families: {
      evm: manifest.chains.map(catalogChain),
      solana: manifest.solana ? [solanaCatalogChain(manifest.solana)] : [],
    },
  };
}

/** The Solana stand-in as the hub's catalog declares it; its escrow settler names Solana outputs. */
function solanaCatalogChain(solana: DevnetSolanaChain): CatalogSolanaChain {
  const reference = solana.chainDomain.slice("solana:".length);
  return {
    chainDomain: solana.chainDomain,
    name: "Solana devnet",
    genesisHash: solana.genesisHash,
    oifChainId: solanaOifChainId(solana.genesisHash).toString(),
    native: { symbol: "SOL", decimals: 9 },
    nativeKey: `solana:${reference}/slip44:501`,
    escrow: { settler: solana.escrow.settler.address, vaults: solana.escrow.vaults },
    outputSettler: solana.escrow.settler.address,
    // The stand-in confirms a transaction as it lands: its lanes stay fast.
    commitment: "confirmed",
    assets: solana.tokens.map(({ assetKey, symbol, decimals, mint }) => ({
      key: assetKey,
      symbol,
      decimals,
      mint,
    })),
  };
}
