export * from "./create-dashboard-app.js";
