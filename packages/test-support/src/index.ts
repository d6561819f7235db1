export * from "./free-port.js";
export * from "./nginx.js";
export * from "./poll-until.js";
export * from "./private-postgres.js";
export * from "./private-redis.js";
export * from "./private-server.js";
