export * from "./external-aggregator-client.js";
export * from "./interop-address.js";
export * from "./oif-aggregator-client.js";
export * from "./oif-order-response.js";
export * from "./oif-quote-request.js";
export * from "./oif-quote-response.js";
export * from "./provider-clients.js";
export * from "./providers-config.js";
