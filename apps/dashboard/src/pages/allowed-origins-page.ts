import type { Project } from "@hub/admin";
import { html, type SafeHtml } from "../html.js";
import { formField, hiddenField } from "./form-field.js";

export function allowedOriginsBody(input: {
  project: Project | null;
  value?: string;
  error?: string;
  notice?: string;
}): SafeHtml {
  const { project } = input;
  if (!project)
    return html`<h1>Allowed origins</h1><p class="empty panel">Your organization has no project yet, so there is nothing to allow. Ask an operator to create it.</p>`;
  const origins = project.allowedOrigins;
  return html`<h1>Allowed origins</h1>
<p class="lead">Web pages on these origins may call the API with your project id <code>${project.projectId}</code>. An origin is exact: scheme, host and port, with no path and no wildcard. Changes apply within 2 seconds.</p>
${input.notice ? html`<p class="notice" role="status">${input.notice}</p>` : ""}
<section class="panel" aria-labelledby="origins-title">
<h2 id="origins-title">Origins</h2>
${
  origins.length === 0
    ? html`<p class="empty">No origins yet: no web page may use the project id.</p>`
    : html`<ul class="rows">${origins.map(
        (origin) => html`<li><code>${origin}</code>
<form method="post" action="/origins/remove" class="inline">${hiddenField("origin", origin)}<button type="submit" class="danger small">Remove ${origin}</button></form></li>`,
      )}</ul>`
}
</section>
<form method="post" action="/origins" class="panel stack" novalidate>
<h2>Add an origin</h2>
${formField({ name: "origin", label: "Origin", type: "url", value: input.value, required: true, hint: "For example https://app.example.com or http://localhost:5173", error: input.error })}
<div class="actions"><button type="submit">Add origin</button></div>
</form>`;
}
