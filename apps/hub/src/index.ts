export { type HubConfig, type HubConfigInput, hubConfigSchema, parseHubConfig } from "./config.js";
export {
  createHubApp,
  type HubApp,
  type HubAppDeps,
  type HubReadinessOptions,
  type HubReconcilerOptions,
} from "./create-hub-app.js";
export { catalogConsistencyProblems, loadCatalog } from "./load-catalog.js";
export type { ReconcilerChainConfig } from "./reconciler/create-reconciler.js";
export type { SolanaReconcilerChainConfig } from "./chains/solana/solana-reconciler-chain-config.js";
export { devnetFinalityDepth } from "@hub/chain";
export type { EvmFinality } from "./chains/evm/evm-finality.js";
export {
  reconcilerChainFromCatalog,
  reconcilerChainsFromManifest,
} from "./reconciler/reconciler-chains-from-manifest.js";
export {
  solanaReconcilerChainFromCatalog,
  solanaReconcilerChainsFromManifest,
} from "./chains/solana/solana-reconciler-chains.js";
export { type ChainFactsStore, createChainFactsStore } from "./store/chain-facts-store.js";
export { createReservationBook } from "./submissions/create-reservation-book.js";
export { devnetExternalProvider } from "./providers/external-aggregator/external-aggregator-config.js";
export { devnetProvider, devnetProviders } from "./providers/oif-aggregator/oif-aggregator-config.js";
export {
  type ProviderConfig,
  type ProviderConfigInput,
  parseProvidersConfig,
  providerConfigSchema,
  providersConfigSchema,
} from "./providers/providers-config.js";
export type { ReadinessCheck, ReadinessReport } from "./metrics/readiness.js";
