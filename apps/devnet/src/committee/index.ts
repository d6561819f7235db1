export * from "./create-committee.js";
