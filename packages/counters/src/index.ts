export * from "./counters.js";
export * from "./create-memory-counters.js";
export * from "./create-redis-counters.js";
export * from "./sliding-count.js";
export * from "./take-tokens.js";
export * from "./window-start.js";
