export * from "../chains/chain-readers.js";
export * from "./create-reconciler.js";
export * from "../onchain-views/get-chain-facts.js";
export * from "./reconciler-chains-from-manifest.js";
