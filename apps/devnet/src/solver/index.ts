export * from "./order-payloads.js";
export * from "./register-solver-routes.js";
export * from "./solver.js";
export * from "./solver-error.js";
export * from "./standard-order-json.js";
