import type { AuditLogPage } from "@hub/admin";
import { html, type SafeHtml } from "../html.js";

function detailText(detail: Record<string, unknown>): string {
  return Object.entries(detail)
    .filter(([, value]) => value !== null && value !== undefined)
    .map(([name, value]) => `${name}: ${Array.isArray(value) ? value.join(", ") || "none" : String(value)}`)
    .join(" · ");
}

/** The operators' audit log: every admin action, newest first, with a link to older entries. */
export function auditLogBody(page: AuditLogPage & { orgId?: string | undefined }): SafeHtml {
  const rows = page.entries.map(
    (entry) => html`<tr>
<td class="nowrap">${entry.at.slice(0, 10)}<br><span class="muted">${entry.at.slice(11, 19)} UTC</span></td>
<td class="audit-who">${entry.actor}<br><span class="badge">${entry.source === "dashboard" ? "Dashboard" : "CLI"}</span></td>
<td><code>${entry.action}</code>${Object.keys(entry.detail).length > 0 ? html`<br><span class="muted small">${detailText(entry.detail)}</span>` : ""}</td>
<td class="audit-on">${entry.orgId ? html`<a href="/organizations/${entry.orgId}"><code>${entry.orgId}</code></a>` : html`<span class="muted">—</span>`}${entry.target && entry.target !== entry.orgId ? html`<br><code>${entry.target}</code>` : ""}</td>
</tr>`,
  );
  const older = page.next
    ? `/audit-log?after=${encodeURIComponent(page.next)}${page.orgId ? `&org=${encodeURIComponent(page.orgId)}` : ""}`
    : undefined;
  return html`<h1>Audit log</h1>
<p class="muted">Every admin action that changed something, from the dashboard or the CLI, newest first.${page.orgId ? html` Only <code>${page.orgId}</code>; <a href="/audit-log">show all</a>.` : ""}</p>
<div class="table-wrap">
<table>
<caption class="visually-hidden">Admin actions, newest first</caption>
<thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">Action</th><th scope="col">Organization and target</th></tr></thead>
<tbody>${rows.length > 0 ? rows : html`<tr><td colspan="4" class="empty">No admin actions recorded yet.</td></tr>`}</tbody>
</table>
</div>
${older ? html`<p><a href="${older}">Older entries →</a></p>` : ""}`;
}
