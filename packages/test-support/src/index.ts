export * from "./free-port.js";
export * from "./nginx.js";
export * from "./poll-until.js";
export * from "./private-postgres.js";
