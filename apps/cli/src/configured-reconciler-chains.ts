import type { Devnet } from "@hub/devnet-app";
import type { ReconcilerChainConfig, SolanaReconcilerChainConfig } from "@hub/hub-app";
import type { Logger } from "pino";
import type { StackConfig } from "./stack-config.js";

type HubAppModule = typeof import("@hub/hub-app");
type Catalog = Awaited<ReturnType<HubAppModule["loadCatalog"]>>;
type RpcUrls = StackConfig["HUB_CHAIN_RPC_URLS"];

/** Every domain HUB_CHAIN_RPC_URLS names must be one the stack indexes. */
export function checkRpcUrlDomains(rpcUrls: RpcUrls, catalog: Catalog, devnet: Devnet | undefined): void {
  const knownDomains = new Set(
    devnet
      ? [...devnet.manifest.chains.map((chain) => chain.chainDomain), devnet.manifest.solana?.chainDomain]
      : [...catalog.families.evm, ...catalog.families.solana].map((chain) => chain.chainDomain),
  );
  // Honoured or refused, never ignored: a domain the stack does not index is a typo.
  for (const chainDomain of Object.keys(rpcUrls ?? {})) {
    if (!knownDomains.has(chainDomain)) {
      throw new Error(
        `HUB_CHAIN_RPC_URLS names ${chainDomain}, which ${devnet ? "the devnet does not run" : "the catalog does not list"}`,
      );
    }
  }
}

/** The EVM chains the reconciler reads: the devnet's, or the catalog's that have an RPC URL. */
export function configuredEvmChains(
  rpcUrls: RpcUrls,
  catalog: Catalog,
  devnet: Devnet | undefined,
  hubApp: Pick<
    HubAppModule,
    "devnetFinalityDepth" | "reconcilerChainFromCatalog" | "reconcilerChainsFromManifest"
  >,
  logger: Logger,
): ReconcilerChainConfig[] {
  const { devnetFinalityDepth, reconcilerChainFromCatalog, reconcilerChainsFromManifest } = hubApp;
  const urlsFor = (chainDomain: string) => rpcUrls?.[chainDomain];
  return devnet
    ? // The devnet's chains can be read through other URLs (a fault-injecting proxy in front of anvil).
      reconcilerChainsFromManifest(devnet.manifest, {
        finality: { depth: devnetFinalityDepth },
        ...(rpcUrls ? { rpcUrls } : {}),
      })
    : catalog.families.evm.flatMap((chain) => {
        const urls = urlsFor(chain.chainDomain);
        if (!urls?.[0]) {
          logger.warn(
            { chainDomain: chain.chainDomain },
            "no RPC URL for this catalog chain: it is not indexed",
          );
          return [];
        }
        // From block 0 a public chain takes hours; an explicit 0 says the operator means it.
        if (chain.deployBlock === undefined) {
          throw new Error(
            `the catalog gives no deployBlock for ${chain.chainDomain}: set it to the block the settlers were deployed in (0 to read the chain from its first block)`,
          );
        }
        return [reconcilerChainFromCatalog(chain, urls)];
      });
}

/** The Solana chains the reconciler reads: the devnet's stand-in, or the catalog's that have an RPC URL. */
export function configuredSolanaChains(
  rpcUrls: RpcUrls,
  catalog: Catalog,
  devnet: Devnet | undefined,
  hubApp: Pick<HubAppModule, "solanaReconcilerChainFromCatalog" | "solanaReconcilerChainsFromManifest">,
  logger: Logger,
): SolanaReconcilerChainConfig[] {
  const { solanaReconcilerChainFromCatalog, solanaReconcilerChainsFromManifest } = hubApp;
  const urlsFor = (chainDomain: string) => rpcUrls?.[chainDomain];
  return devnet
    ? solanaReconcilerChainsFromManifest(devnet.manifest).map((chain) => {
        const urls = urlsFor(chain.chainDomain);
        return urls?.[0] ? { ...chain, rpcUrl: urls[0] } : chain;
      })
    : catalog.families.solana.flatMap((chain) => {
        const urls = urlsFor(chain.chainDomain);
        if (!urls?.[0]) {
          logger.warn(
            { chainDomain: chain.chainDomain },
            "no RPC URL for this catalog chain: it is not indexed",
          );
          return [];
        }
        if (urls.length > 1) {
          throw new Error(
            `HUB_CHAIN_RPC_URLS gives ${chain.chainDomain} ${urls.length} URLs: a Solana chain is read at one URL`,
          );
        }
        return [solanaReconcilerChainFromCatalog(chain, urls[0])];
      });
}
