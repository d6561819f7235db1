export * from "./create-external-aggregator.js";
export * from "./external-aggregator-error.js";
export * from "./external-quote.js";
export * from "./register-external-aggregator-routes.js";
