// The reconciler's chain seam and the EVM family's reader, as the reconciler's index exports them; each
// other family's own are imported from its folder.
export * from "./chain-indexer.js";
export * from "./evm/chain-reader.js";
export * from "./evm/create-evm-chain-indexer.js";
export * from "./evm/create-evm-chain-reader.js";
