export * from "./send-devnet-transaction.js";
export * from "./solana-chain.js";
export * from "./solana-escrow.js";
export * from "./solana-keypair.js";
export * from "./solana-rpc-error.js";
export * from "./start-solana-devnet.js";
