export * from "./credentials.js";
export * from "./envelope.js";
export * from "./error-catalogue.js";
export * from "./hub-error.js";
export * from "./ids.js";
export * from "./catalog.js";
export * from "./hub-call.js";
export * from "./route-table.js";
