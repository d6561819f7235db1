export * from "./build-catalog.js";
export * from "./deploy-devnet-chain.js";
export * from "./devnet-accounts.js";
export * from "./devnet-chain-snapshots.js";
export * from "./plan-devnet-deployment.js";
export * from "./start-devnet-chains.js";
