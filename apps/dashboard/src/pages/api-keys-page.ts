import type { ApiKeyInfo } from "@hub/admin";
import { html, type SafeHtml } from "../html.js";
import { copyField, formField, hiddenField, shortDate } from "./form-field.js";

/** What the key list page shows once, right after a key was made. */
export interface NewKeyMessage {
  kind: "new-key";
  key: string;
  label: string;
  /** Set by the rotate flow: the key to revoke once callers moved. */
  rotatedFrom?: { keyId: string; label: string };
}

/** The name a key goes by in buttons: its label, or its display prefix when it has none. */
export function keyName(key: Pick<ApiKeyInfo, "label" | "displayPrefix">): string {
  return key.label ?? `${key.displayPrefix}…`;
}

function revokeForm(key: ApiKeyInfo): SafeHtml {
  const name = keyName(key);
  return html`<form method="post" action="/keys/revoke" class="inline" data-confirm="Revoke the key ${name} (${key.displayPrefix}…)? Calls with it are refused within 2 seconds. This cannot be undone." data-confirm-title="Revoke ${name}?" data-confirm-button="Revoke key">
${hiddenField("keyId", key.keyId)}
<button type="submit" class="danger small">Revoke ${name}</button>
</form>`;
}

function statusBadge(status: ApiKeyInfo["status"]): SafeHtml {
  return html`<span class="badge ${status}">${status}</span>`;
}

export function apiKeysBody(input: {
  keys: ApiKeyInfo[];
  created?: NewKeyMessage | undefined;
  readOnly?: boolean;
}): SafeHtml {
  const { keys, created, readOnly } = input;
  const rows = keys.map(
    (key) => html`<tr>
<td>${key.label ?? html`<span class="muted">(no label)</span>`}</td>
<td><code>${key.displayPrefix}…</code></td>
<td>${shortDate(key.createdAt)}</td>
<td>${key.expiresAt ? shortDate(key.expiresAt) : "never"}</td>
<td>${key.lastUsedAt ? shortDate(key.lastUsedAt) : "never"}</td>
<td>${statusBadge(key.status)}</td>
${readOnly ? "" : html`<td class="row-end">${key.status === "active" ? html`<div class="row-actions"><a class="button secondary small" href="/keys/rotate?keyId=${encodeURIComponent(key.keyId)}">Rotate ${keyName(key)}</a>${revokeForm(key)}</div>` : ""}</td>`}
</tr>`,
  );
  return html`${created ? newKeyPanel(created) : ""}
<div class="table-wrap">
<table class="keys">
<caption class="visually-hidden">API keys</caption>
<thead><tr><th scope="col">Label</th><th scope="col">Prefix</th><th scope="col">Created</th><th scope="col">Expires</th><th scope="col">Last used</th><th scope="col">Status</th>${readOnly ? "" : html`<th scope="col"><span class="visually-hidden">Actions</span></th>`}</tr></thead>
<tbody>
${rows.length > 0 ? rows : html`<tr><td colspan="${readOnly ? 6 : 7}" class="empty">No keys yet.${readOnly ? "" : " Create one to call the API from your backend."}</td></tr>`}
</tbody>
</table>
</div>`;
}

function newKeyPanel(created: NewKeyMessage): SafeHtml {
  return html`<section class="panel success" aria-labelledby="new-key-title">
<h2 id="new-key-title">Key “${created.label}” created</h2>
${copyField({ id: "new-api-key", label: "New API key", value: created.key, wide: true })}
<p class="warning" role="note"><strong>Copy it now.</strong> This key will not be shown again: we keep only a hash of it.</p>
${
  created.rotatedFrom
    ? html`<p class="notice">Move your callers to the new key, then revoke the old key <strong>${created.rotatedFrom.label}</strong> below. Both keys work until you do.</p>`
    : ""
}
</section>`;
}

export function apiKeysPageBody(input: {
  keys: ApiKeyInfo[];
  created?: NewKeyMessage | undefined;
}): SafeHtml {
  return html`<div class="title-row"><h1>API keys</h1>
<form method="get" action="/keys/new"><button type="submit">Create key</button></form></div>
<p class="lead">Backends call the API with <code>x-api-key</code>. A key is shown once when it is made. A revoked key is refused within 2 seconds.</p>
${apiKeysBody(input)}`;
}

export interface KeyFormValues {
  label?: string;
  expires?: string;
}

const EXPIRY_CHOICES = [
  { value: "", label: "Never" },
  { value: "30d", label: "In 30 days" },
  { value: "90d", label: "In 90 days" },
  { value: "365d", label: "In a year" },
];

function expirySelect(selected: string | undefined, error: string | undefined): SafeHtml {
  return html`<div class="field${error ? " has-error" : ""}">
<label for="field-expires">Expires</label>
<select id="field-expires" name="expires"${error ? html` aria-invalid="true" aria-describedby="field-expires-error"` : ""}>
${EXPIRY_CHOICES.map((choice) => html`<option value="${choice.value}"${choice.value === (selected ?? "") ? html` selected` : ""}>${choice.label}</option>`)}
</select>
${error ? html`<p class="error" id="field-expires-error">${error}</p>` : ""}
</div>`;
}

export function newKeyBody(input: {
  values?: KeyFormValues;
  errors?: { label?: string; expires?: string };
}): SafeHtml {
  return html`<p class="back"><a href="/keys">← API keys</a></p>
<h1>Create key</h1>
<form method="post" action="/keys" class="stack panel">
${formField({ name: "label", label: "Label", value: input.values?.label, required: true, maxlength: 100, hint: "Who or what uses the key, e.g. “checkout backend”.", error: input.errors?.label })}
${expirySelect(input.values?.expires, input.errors?.expires)}
<div class="actions"><button type="submit">Create</button><a class="button secondary" href="/keys">Cancel</a></div>
</form>`;
}

export function rotateKeyBody(input: {
  key: ApiKeyInfo;
  values?: KeyFormValues;
  errors?: { label?: string; expires?: string };
}): SafeHtml {
  const old = keyName(input.key);
  return html`<p class="back"><a href="/keys">← API keys</a></p>
<h1>Rotate ${old}</h1>
<p class="lead">Rotating makes a new key now. The old key keeps working until you revoke it, so your callers can move without downtime.</p>
<form method="post" action="/keys/rotate" class="stack panel">
${hiddenField("keyId", input.key.keyId)}
${formField({ name: "label", label: "Label", value: input.values?.label ?? `${old} (new)`.slice(0, 100), required: true, maxlength: 100, hint: "The new key's label.", error: input.errors?.label })}
${expirySelect(input.values?.expires, input.errors?.expires)}
<div class="actions"><button type="submit">Rotate</button><a class="button secondary" href="/keys">Cancel</a></div>
</form>`;
}

export function revokeConfirmBody(key: ApiKeyInfo): SafeHtml {
  const name = keyName(key);
  return html`<p class="back"><a href="/keys">← API keys</a></p>
<h1>Revoke ${name}?</h1>
<p>Calls with the key <code>${key.displayPrefix}…</code> are refused within 2 seconds. This cannot be undone.</p>
<form method="post" action="/keys/revoke" class="actions">
${hiddenField("keyId", key.keyId)}${hiddenField("confirmed", "1")}
<button type="submit" class="danger">Revoke key</button><a class="button secondary" href="/keys">Cancel</a>
</form>`;
}
