export * from "./admin-channel.js";
export * from "./admin-channel-file.js";
export * from "./admin-request.js";
export * from "./execute-admin-request.js";
export * from "./run-cli.js";
export * from "./stack-config.js";
