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
export type { SolanaReconcilerChainConfig } from "./reconciler/index-solana-chain.js";
export {
  reconcilerChainsFromManifest,
  solanaReconcilerChainFromCatalog,
  solanaReconcilerChainsFromManifest,
} from "./reconciler/reconciler-chains-from-manifest.js";
export { type ChainFactsStore, createChainFactsStore } from "./store/chain-facts-store.js";
export { createReservationBook } from "./submissions/create-reservation-book.js";
export {
  devnetExternalProvider,
  devnetProvider,
  devnetProviders,
  type ProviderConfig,
  type ProviderConfigInput,
  parseProvidersConfig,
  providerConfigSchema,
  providersConfigSchema,
} from "./upstream/providers-config.js";
export type { ReadinessCheck, ReadinessReport } from "./operations/readiness.js";
