export * from "./poll-until.js";
export * from "./private-postgres.js";
