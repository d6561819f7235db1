export { type HubConfig, type HubConfigInput, hubConfigSchema, parseHubConfig } from "./config.js";
export { type HubApp, type HubAppDeps, createHubApp } from "./create-hub-app.js";
export { catalogConsistencyProblems, loadCatalog } from "./load-catalog.js";
export type { Clock } from "./services/clock.js";
export {
  devnetProvider,
  parseProvidersConfig,
  type ProviderConfig,
  type ProviderConfigInput,
  providerConfigSchema,
  providersConfigSchema,
} from "./upstream/providers-config.js";
