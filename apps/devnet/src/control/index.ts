export * from "./create-chain-time-control.js";
export * from "./register-control-routes.js";
export * from "./create-chain-reorg.js";
