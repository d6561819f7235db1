export * from "./buffer-slab.js";
export * from "./connection-pool.js";
export * from "./response-framing.js";
export * from "./redact-url.js";
