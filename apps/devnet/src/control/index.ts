export * from "./create-chain-time-control.js";
export * from "./register-control-routes.js";
