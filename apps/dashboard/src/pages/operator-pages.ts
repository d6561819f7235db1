import type {
  ApiKeyInfo,
  MemberInfo,
  OperatorInfo,
  Organization,
  Project,
  ReservationInfo,
} from "@hub/admin";
import { html, type SafeHtml } from "../html.js";
import { apiKeysBody } from "./api-keys-page.js";
import { copyField, formField, hiddenField, shortDate } from "./form-field.js";

export function organizationsBody(input: {
  organizations: Organization[];
  next: string | null;
  value?: string;
  error?: string;
}): SafeHtml {
  const rows = input.organizations.map(
    (org) => html`<tr>
<td><a href="/organizations/${org.orgId}">${org.name}</a></td>
<td><code>${org.orgId}</code></td>
<td>${org.projectId ? html`<code>${org.projectId}</code>` : html`<span class="muted">none</span>`}</td>
<td>${shortDate(org.createdAt)}</td>
</tr>`,
  );
  return html`<h1>Organizations</h1>
<form method="post" action="/organizations" class="panel stack inline-form">
<h2>Create an organization</h2>
${formField({ name: "name", label: "Name", value: input.value, required: true, maxlength: 200, hint: "The customer's name; its project is made with it.", error: input.error })}
<div class="actions"><button type="submit">Create organization</button></div>
</form>
<div class="table-wrap">
<table>
<caption class="visually-hidden">Organizations</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Organization id</th><th scope="col">Project id</th><th scope="col">Created</th></tr></thead>
<tbody>${rows.length > 0 ? rows : html`<tr><td colspan="4" class="empty">No organizations yet. Create the first one above.</td></tr>`}</tbody>
</table>
</div>
${input.next ? html`<p><a href="/organizations?after=${encodeURIComponent(input.next)}">Next page →</a></p>` : ""}`;
}

export interface InviteMessage {
  kind: "invite";
  email: string;
  link: string;
  expiresAt: string;
}

export function organizationBody(input: {
  organization: Organization;
  project: Project | null;
  keys: ApiKeyInfo[];
  members: MemberInfo[];
  invited?: InviteMessage | undefined;
  email?: string;
  error?: string;
}): SafeHtml {
  const { organization, project } = input;
  return html`<p class="back"><a href="/organizations">← Organizations</a></p>
<h1>${organization.name}</h1>
<div class="panel grid">
${copyField({ id: "org-id", label: "Organization id", value: organization.orgId })}
${project ? copyField({ id: "project-id", label: "Project id", value: project.projectId }) : html`<p class="empty">No project.</p>`}
</div>
${
  input.invited
    ? html`<section class="panel success" aria-labelledby="invite-title">
<h2 id="invite-title">Invitation for ${input.invited.email}</h2>
${copyField({ id: "invite-link", label: "Sign-in link", value: input.invited.link, wide: true })}
<p class="warning" role="note">Send this link to ${input.invited.email}. It works once, until ${shortDate(input.invited.expiresAt)}, and is not shown again.</p>
</section>`
    : ""
}
${organizationStatusPanel({ organization, members: input.members })}
<form method="post" action="/organizations/${organization.orgId}/invites" class="panel stack inline-form">
<h2>Invite a member</h2>
${formField({ name: "email", label: "Email", type: "email", value: input.email, required: true, autocomplete: "off", error: input.error })}
<div class="actions"><button type="submit">Invite member</button></div>
</form>
<section class="panel" aria-labelledby="origins-title">
<h2 id="origins-title">Allowed origins</h2>
${
  project && project.allowedOrigins.length > 0
    ? html`<ul class="rows">${project.allowedOrigins.map((origin) => html`<li><code>${origin}</code></li>`)}</ul>`
    : html`<p class="empty">None.</p>`
}
</section>
<section aria-labelledby="keys-title">
<h2 id="keys-title">API keys</h2>
${apiKeysBody({ keys: input.keys, readOnly: true })}
</section>`;
}

export type ReconcileErrors = Record<string, { field: "onchainOrderId" | "note"; message: string }>;

export function reservationsBody(input: {
  reservations: ReservationInfo[] | null;
  errors?: ReconcileErrors;
  values?: Record<string, string>;
  notice?: string;
}): SafeHtml {
  if (input.reservations === null)
    return html`<h1>Reservations</h1><p class="empty panel">This dashboard runs without the hub's reservations.</p>`;
  const rows = input.reservations.map((r) => {
    const error = input.errors?.[r.hubOrderId];
    const id = r.hubOrderId.replace(/[^A-Za-z0-9_-]/g, "");
    return html`<li class="panel reservation">
<div class="reservation-facts">
<h2><code>${r.hubOrderId}</code> <span class="badge ${r.state}">${r.state}</span></h2>
<dl>
<dt>Organization</dt><dd><code>${r.orgId}</code></dd>
<dt>Lane</dt><dd>${r.lane}</dd>
<dt>Upstream</dt><dd>${r.upstreamProviderId}${r.upstreamOrderId ? html` · <code>${r.upstreamOrderId}</code>` : ""}</dd>
<dt>Reserved</dt><dd>${shortDate(r.reservedAt)}</dd>
<dt>Last answer</dt><dd>${r.lastCode ?? "—"}${r.lastDetail ? html` · ${r.lastDetail}` : ""}</dd>
</dl>
</div>
<div class="reservation-actions">
<form method="post" action="/reservations/opened" class="stack">
${hiddenField("hubOrderId", r.hubOrderId)}
${formField({ id: `opened-${id}`, name: "onchainOrderId", label: "On-chain order id", value: error?.field === "onchainOrderId" ? input.values?.[r.hubOrderId] : undefined, hint: "0x and 64 hex digits, from the Open event.", error: error?.field === "onchainOrderId" ? error.message : undefined })}
<button type="submit">Mark opened</button>
</form>
<form method="post" action="/reservations/not-opened" class="stack">
${hiddenField("hubOrderId", r.hubOrderId)}
${formField({ id: `note-${id}`, name: "note", label: "Note", value: error?.field === "note" ? input.values?.[r.hubOrderId] : undefined, hint: "What you checked; kept with the reservation.", error: error?.field === "note" ? error.message : undefined })}
<button type="submit" class="secondary">Mark not opened</button>
</form>
</div>
</li>`;
  });
  return html`<h1>Reservations</h1>
<p class="lead">Submissions whose forward had no clear answer (<code>forwarding</code> or <code>unknown</code>): every re-post answers EIN0052 until you settle them here. Check the chain and the upstream first.</p>
${input.notice ? html`<p class="notice" role="status">${input.notice}</p>` : ""}
${rows.length > 0 ? html`<ul class="reservations">${rows}</ul>` : html`<p class="empty panel">Nothing to reconcile: no reservation is forwarding or unknown.</p>`}`;
}

export function operatorsBody(input: {
  viewer: { accountId: string };
  operators: OperatorInfo[];
  error?: string;
}): SafeHtml {
  const rows = input.operators.map(
    (op) => html`<tr>
<td>${op.email}${op.accountId === input.viewer.accountId ? html` <span class="muted">(you)</span>` : ""}</td>
<td>${shortDate(op.joinedAt)}</td>
<td>${op.lastSignInAt ? shortDate(op.lastSignInAt) : "never"}</td>
<td>${op.twoFactor ? html`<span class="badge active">on</span>` : html`<span class="badge off">off</span>`}</td>
<td>${op.disabledAt ? html`<span class="badge revoked">disabled</span>` : html`<span class="badge active">active</span>`}</td>
<td class="row-end">${
      op.accountId === input.viewer.accountId
        ? ""
        : html`<form method="post" action="/operators/${op.disabledAt ? "enable" : "disable"}" class="inline">
${hiddenField("accountId", op.accountId)}
<button type="submit" class="${op.disabledAt ? "secondary" : "danger"} small">${op.disabledAt ? "Enable" : "Disable"} ${op.email}</button>
</form>`
    }</td>
</tr>`,
  );
  return html`<h1>Operators</h1>
<p class="lead">A disabled operator is signed out at once and their password no longer signs in. Invite operators with <code>hub admin operator invite</code>.</p>
${input.error ? html`<p class="error-box" role="alert">${input.error}</p>` : ""}
<div class="table-wrap">
<table>
<caption class="visually-hidden">Operators</caption>
<thead><tr><th scope="col">Email</th><th scope="col">Joined</th><th scope="col">Last sign-in</th><th scope="col">Two-factor</th><th scope="col">Status</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${rows}</tbody>
</table>
</div>`;
}

export function organizationStatusPanel(input: {
  organization: Organization;
  members: MemberInfo[];
}): SafeHtml {
  const { organization } = input;
  return html`<section class="panel stack" aria-labelledby="status-title">
<h2 id="status-title">Status ${organization.disabledAt ? html`<span class="badge revoked">disabled</span>` : html`<span class="badge active">active</span>`}</h2>
<p>${
    organization.disabledAt
      ? `Disabled since ${shortDate(organization.disabledAt)}: the gateway refuses its keys (EPX0002) and its project id (EPX0009).`
      : "Enabled: its keys and project id are served."
  }</p>
<form method="post" action="/organizations/${organization.orgId}/${organization.disabledAt ? "enable" : "disable"}" class="actions"${organization.disabledAt ? "" : html` data-confirm="The gateway refuses its keys and project id within 2 seconds, until you enable it again." data-confirm-title="Disable ${organization.name}?" data-confirm-button="Disable organization"`}>
<button type="submit" class="${organization.disabledAt ? "" : "danger"}">${organization.disabledAt ? "Enable organization" : "Disable organization"}</button>
</form>
</section>
<section class="panel" aria-labelledby="members-title">
<h2 id="members-title">Members</h2>
${
  input.members.length > 0
    ? html`<ul class="rows">${input.members.map((m) => html`<li>${m.email} <span class="badge ${m.role}">${m.role}</span>${m.invited ? html` <span class="badge pending">invited</span>` : ""}</li>`)}</ul>`
    : html`<p class="empty">None yet.</p>`
}
</section>`;
}
