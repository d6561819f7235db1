export * from "./fault-gate-hook.js";
export * from "./fault-knobs.js";
export * from "./register-fault-control-routes.js";
