export * from "./chain-reader.js";
export * from "./create-evm-chain-reader.js";
export * from "./create-reconciler.js";
export * from "./create-solana-chain-reader.js";
export * from "./get-chain-facts.js";
export * from "./index-solana-chain.js";
export * from "./reconciler-chains-from-manifest.js";
export * from "./solana-chain-reader.js";
