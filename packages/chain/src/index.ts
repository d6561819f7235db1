export * from "./devnet-manifest.js";
