import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { type DashboardContext, type DashboardFastify, sendPage } from "../http/dashboard-context.js";
import { html } from "../html.js";
import { publicPage } from "../pages/layout.js";

/** The integrator's guides under docs/, served as Markdown beside the rendered reference. */
const GUIDES = [
  { file: "api.md", title: "API guide: credentials, envelope, polling" },
  { file: "lanes.md", title: "Lanes: what the user signs or sends" },
  { file: "quotes.md", title: "Quotes: rounds, preview and prepare" },
  { file: "order-states.md", title: "Order states and when to stop polling" },
  { file: "errors.md", title: "Error codes and what a client does" },
] as const;

const docsDir = new URL("../../../../docs/", import.meta.url);
// The contract's generated files as committed (the drift check holds them to the code): reading them costs
// nothing at start, where rendering the document takes about half a second.
const contractDir = new URL("../../../../packages/contract/", import.meta.url);
const REDOCLY_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg";
const redocBundle = createRequire(import.meta.url).resolve("redoc/bundles/redoc.standalone.js");

/**
 * Redoc styles itself with inline styles and runs its sample rendering in a blob worker; the reference
 * page alone allows those (docs/decisions.md, API reference), and still no script from elsewhere.
 */
const REFERENCE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src 'self'; worker-src blob:; form-action 'none'; base-uri 'none'; frame-ancestors 'none'";

/** What /docs serves besides its pages, read once. */
const DOC_FILES = {
  "openapi.yaml": {
    type: "application/yaml; charset=utf-8",
    body: readFileSync(new URL("openapi.yaml", contractDir)),
  },
  "errors.json": {
    type: "application/json; charset=utf-8",
    body: readFileSync(new URL("errors.json", contractDir)),
  },
  "redoc.standalone.js": {
    type: "text/javascript; charset=utf-8",
    // Redoc's sidebar shows its maker's logo from a CDN; an empty image makes it drop the logo instead.
    body: readFileSync(redocBundle, "utf8").replace(REDOCLY_LOGO, "data:,"),
  },
  "api-reference.js": {
    type: "text/javascript; charset=utf-8",
    body: readFileSync(new URL("../../assets/api-reference.js", import.meta.url)),
  },
} as const;

const GUIDE_TEXTS = new Map<string, string>(
  GUIDES.map(({ file }) => [file, readFileSync(new URL(file, docsDir), "utf8")] as const),
);

/**
 * /docs: the API reference rendered by Redoc from the contract's OpenAPI document (the one the hub
 * serves; nothing from a CDN), the document itself, the error catalogue as JSON and the Markdown
 * guides. Public: an integrator reads them before having an account.
 */
export function registerDocsRoutes(app: DashboardFastify, context: DashboardContext): void {
  app.get("/docs", async (_request, reply) =>
    sendPage(
      reply,
      publicPage(
        "Documentation",
        html`<h1>Documentation</h1>
<p>The API's base URL: <code>${context.apiBaseUrl}</code>.</p>
<ul>
<li><a href="/docs/api">API reference</a>: every route, its fields, examples and error codes.</li>
<li><a href="/docs/openapi.yaml">OpenAPI 3.1 document</a> (YAML), for generated clients.</li>
<li><a href="/docs/errors.json">Error catalogue</a> (JSON): each code's status, block and what a client does.</li>
</ul>
<h2>Guides</h2>
<ul>
${GUIDES.map(({ file, title }) => html`<li><a href="/docs/guides/${file}">${title}</a></li>`)}
</ul>`,
      ),
    ),
  );

  app.get("/docs/api", async (_request, reply) =>
    reply
      .type("text/html; charset=utf-8")
      .header("content-security-policy", REFERENCE_CSP)
      .send(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference · Intent Hub</title>
<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">
</head>
<body>
<div id="redoc"></div>
<script src="/docs/redoc.standalone.js"></script>
<script src="/docs/api-reference.js"></script>
</body>
</html>
`),
  );

  app.get<{ Params: { name: string } }>("/docs/guides/:name", async (request, reply) => {
    const guide = GUIDE_TEXTS.get(request.params.name);
    if (guide === undefined) return reply.callNotFound();
    return reply.type("text/markdown; charset=utf-8").send(guide);
  });

  for (const [name, file] of Object.entries(DOC_FILES)) {
    app.get(`/docs/${name}`, async (_request, reply) => reply.type(file.type).send(file.body));
  }
}
