export * from "./create-relayer.js";
export * from "./destination-token.js";
