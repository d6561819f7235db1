export * from "./create-committee.js";
export * from "./solana-release.js";
