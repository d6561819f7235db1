import type { Organization, Project } from "@hub/admin";
import { html, type SafeHtml } from "../html.js";
import { copyField } from "./form-field.js";

export function overviewBody(input: {
  organization: Organization;
  project: Project | null;
  apiBaseUrl: string;
}): SafeHtml {
  const { organization, project, apiBaseUrl } = input;
  const curl = `curl -s ${apiBaseUrl}/catalog -H "x-api-key: $API_KEY"`;
  return html`<h1>Overview</h1>
<p class="lead">Everything your code needs to call the API. <a href="/keys">Create a key</a> for your backend; <a href="/origins">list the web origins</a> that call it with the project id.</p>
<section class="panel" aria-labelledby="ids-title">
<h2 id="ids-title">Your organization</h2>
<div class="grid">
${copyField({ id: "org-id", label: "Organization id", value: organization.orgId })}
${project ? copyField({ id: "project-id", label: "Project id", value: project.projectId }) : html`<div class="field"><p class="label">Project id</p><p class="empty">No project yet: ask an operator to create it.</p></div>`}
${copyField({ id: "base-url", label: "Base URL", value: apiBaseUrl, wide: true })}
</div>
</section>
<section class="panel" aria-labelledby="curl-title">
<h2 id="curl-title">Your first call</h2>
<p>Create a key, put it in <code>API_KEY</code>, and ask for the catalog of chains and assets:</p>
${copyField({ id: "first-curl", label: "First curl", value: curl, wide: true })}
<p class="muted">From a browser, send <code>x-project-id</code> instead of a key; the page's origin must be allowed.</p>
</section>`;
}
