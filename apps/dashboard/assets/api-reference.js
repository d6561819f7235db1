// Renders the API reference: Scalar (served from this dashboard, no CDN) on the OpenAPI document, with its
// console pointed at this deployment's gateway and prefilled with the member's project id (or a placeholder).
/* global Scalar */
const config = JSON.parse(document.getElementById("reference-config").textContent);
Scalar.createApiReference("#hub-api-reference", {
  url: "/docs/openapi.yaml",
  slug: "intent-hub",
  title: "Intent Hub API",
  servers: [{ url: config.apiBaseUrl, description: "This deployment's gateway" }],
  authentication: {
    preferredSecurityScheme: "projectId",
    securitySchemes: {
      projectId: { value: config.projectId },
      apiKey: { value: "svc_sk_YOUR_SECRET_KEY" },
    },
  },
  defaultHttpClient: { targetKey: "node", clientKey: "fetch" },
  documentDownloadType: "yaml",
  // Nothing from elsewhere: no web fonts, no telemetry, no AI agent, no MCP link, no Scalar proxy.
  withDefaultFonts: false,
  telemetry: false,
  mcp: { disabled: true },
  agent: { disabled: true },
  showDeveloperTools: "never",
  customCss:
    ":root { --scalar-font: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; --scalar-font-code: ui-monospace, SFMono-Regular, Menlo, monospace; }",
  persistAuth: false,
  hideClientButton: false,
});
