export * from "./poll-until.js";
