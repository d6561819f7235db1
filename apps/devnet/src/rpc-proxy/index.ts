export * from "./create-rpc-fault-proxy.js";
export * from "./create-chain-rpc-proxies.js";
