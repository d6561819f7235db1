import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { html } from "../html.js";
import { type DashboardContext, type DashboardFastify, sendPage } from "../http/dashboard-context.js";
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
// Scalar's API reference (MIT, @scalar/api-reference): one self-contained script of about 4.9 MB
// (1.4 MB gzipped), served from here. The package is a dev dependency (its own dependencies bring vite,
// esbuild and TypeScript): `npm run build` copies the script into dist/vendor/, which the built copy
// reads; a checkout reads it beside the package's entry (its exports name no subpath for it).
function scalarBundlePath(): string {
  const built = fileURLToPath(new URL("../vendor/scalar-standalone.js", import.meta.url));
  if (existsSync(built)) return built;
  return join(
    dirname(createRequire(import.meta.url).resolve("@scalar/api-reference")),
    "browser/standalone.js",
  );
}
const scalarBundle = scalarBundlePath();

/**
 * Scalar's stylesheet declares its fonts from fonts.scalar.com whatever `withDefaultFonts` says; the page
 * uses the system's fonts instead (api-reference.js), so those declarations are cut out. A Scalar version
 * that moves them fails the script's route (the dashboard's browser test loads it) rather than loading
 * fonts from elsewhere.
 */
function withoutWebFonts(bundle: string): string {
  const start = bundle.indexOf("`/* Inter (--scalar-font) */");
  const end = bundle.indexOf("`", start + 1);
  if (start < 0 || end < 0 || !bundle.slice(start, end).includes("fonts.scalar.com"))
    throw new Error(`${scalarBundle}: Scalar's font declarations not found; check the page loads no fonts`);
  const cut = `${bundle.slice(0, start)}\`/* fonts: the system's */${bundle.slice(end)}`;
  if (cut.includes("fonts.scalar.com"))
    throw new Error(`${scalarBundle}: fonts.scalar.com left in the bundle`);
  return cut;
}

/**
 * Scalar styles itself with inline styles; the reference page alone allows those (docs/decisions.md,
 * API reference), still no script from elsewhere. Its console calls the gateway, so the API's origin
 * is the one other place the page may connect to.
 */
function referenceCsp(apiOrigin: string): string {
  return `default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self' ${apiOrigin}; worker-src blob:; form-action 'none'; base-uri 'none'; frame-ancestors 'none'`;
}

/** A file's contents, read on its first request and kept (not at start: Scalar's script alone is 4.9 MB). */
function readOnce<T>(read: () => T): () => T {
  let body: T | undefined;
  return () => {
    body ??= read();
    return body;
  };
}

/** What /docs serves besides its pages. */
const DOC_FILES = {
  "openapi.yaml": {
    type: "application/yaml; charset=utf-8",
    body: readOnce(() => readFileSync(new URL("openapi.yaml", contractDir))),
  },
  "errors.json": {
    type: "application/json; charset=utf-8",
    body: readOnce(() => readFileSync(new URL("errors.json", contractDir))),
  },
  "scalar.standalone.js": {
    type: "text/javascript; charset=utf-8",
    body: readOnce(() => withoutWebFonts(readFileSync(scalarBundle, "utf8"))),
  },
  "api-reference.js": {
    type: "text/javascript; charset=utf-8",
    body: readOnce(() => readFileSync(new URL("../../assets/api-reference.js", import.meta.url))),
  },
} as const;

const GUIDE_TEXTS = new Map<string, string>(
  GUIDES.map(({ file }) => [file, readFileSync(new URL(file, docsDir), "utf8")] as const),
);

/**
 * /docs: the API reference rendered by Scalar from the contract's OpenAPI document (the one the hub
 * serves; nothing from a CDN), with a console that sends calls to the gateway and code samples per language, the document itself, the error catalogue as JSON and the Markdown
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
<li><a href="/docs/api">API reference</a>: every route, its fields, examples and error codes, a console to try calls and code samples per language.</li>
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

  app.get("/docs/api", async (request, reply) => {
    // The console is prefilled with the signed-in member's project id (a public credential the gateway
    // accepts from this page's origin once it is allowed), else with a placeholder to replace.
    const viewer = request.viewer;
    const project =
      viewer?.role === "member" && viewer.orgId
        ? (await context.adminFor(viewer).showOrganization({ orgId: viewer.orgId })).project
        : undefined;
    const config = {
      apiBaseUrl: context.apiBaseUrl,
      projectId: project?.projectId ?? "proj_YOUR_PROJECT_ID",
      signedIn: project !== undefined,
    };
    // JSON in a data block (never run): "<" escaped so no value can close the element.
    const json = JSON.stringify(config).replaceAll("<", "\\u003c");
    return reply
      .type("text/html; charset=utf-8")
      .header("content-security-policy", referenceCsp(new URL(context.apiBaseUrl).origin))
      .send(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference · Intent Hub</title>
<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">
</head>
<body>
<div id="hub-api-reference"></div>
<script id="reference-config" type="application/json">${json}</script>
<script src="/docs/scalar.standalone.js"></script>
<script src="/docs/api-reference.js"></script>
</body>
</html>
`);
  });

  app.get<{ Params: { name: string } }>("/docs/guides/:name", async (request, reply) => {
    const guide = GUIDE_TEXTS.get(request.params.name);
    if (guide === undefined) return reply.callNotFound();
    return reply.type("text/markdown; charset=utf-8").send(guide);
  });

  for (const [name, file] of Object.entries(DOC_FILES)) {
    app.get(`/docs/${name}`, async (_request, reply) => reply.type(file.type).send(file.body()));
  }
}
