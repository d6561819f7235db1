// Renders the API reference: Redoc (served from this dashboard, no CDN) on the OpenAPI document.
/* global Redoc */
Redoc.init(
  "/docs/openapi.yaml",
  { hideDownloadButton: false, expandResponses: "200", jsonSampleExpandLevel: 3, disableSearch: true },
  document.getElementById("redoc"),
);
