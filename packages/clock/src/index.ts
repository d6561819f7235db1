export * from "./adjustable-clock.js";
export * from "./clock.js";
export * from "./system-clock.js";
