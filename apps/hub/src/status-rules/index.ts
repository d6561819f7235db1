export * from "./apply-upstream-report.js";
export * from "./chain-facts.js";
export * from "./chain-status.js";
export * from "./derive-chain-view.js";
export * from "./mark-upstream-refresh-failed.js";
export * from "./standard-order-record.js";
export * from "./upstream-state.js";
export * from "./upstream-view.js";
