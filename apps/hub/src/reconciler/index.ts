export * from "./chain-reader.js";
export * from "./create-evm-chain-reader.js";
export * from "./create-reconciler.js";
export * from "./get-chain-facts.js";
export * from "./reconciler-chains-from-manifest.js";
