export * from "./escrow-open-for-signature.js";
export * from "./order-payloads.js";
export * from "./quote-amounts.js";
export * from "./register-solver-routes.js";
export * from "./reported-status.js";
export * from "./solver.js";
export * from "./solver-error.js";
