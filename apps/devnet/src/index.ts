export * from "./committee/index.js";
export * from "./control/index.js";
export * from "./create-chain-clients.js";
export * from "./create-devnet.js";
export * from "./external-aggregator/index.js";
export * from "./oif-dialect.js";
export * from "./relayer/index.js";
export * from "./write-devnet-files.js";
