export * from "./access-error.js";
export * from "./access-service.js";
export * from "./api-key-status.js";
export * from "./normalise-origin.js";
