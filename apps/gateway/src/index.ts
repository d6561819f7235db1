export * from "./create-credential-resolver.js";
export * from "./create-gateway-app.js";
export * from "./create-http-hub-transport.js";
export * from "./create-in-process-hub-transport.js";
export * from "./create-usage-tally.js";
export * from "./gateway-config.js";
export * from "./hub-transport-error.js";
export * from "./parse-credential.js";
