import type { ApiKeyInfo, OrganizationKeyUsage } from "@hub/admin";
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

/** A row's action: the verb shown, the key's name too for screen readers (`Revoke <label>`). */
function actionText(verb: string, name: string): SafeHtml {
  return html`${verb}<span class="visually-hidden"> ${name}</span>`;
}

function revokeForm(key: ApiKeyInfo): SafeHtml {
  const name = keyName(key);
  return html`<form method="post" action="/keys/revoke" class="inline" data-confirm="Revoke the key ${name} (${key.displayPrefix}…)? Calls with it are refused within 2 seconds. This cannot be undone." data-confirm-title="Revoke ${name}?" data-confirm-button="Revoke key">
${hiddenField("keyId", key.keyId)}
<button type="submit" class="danger small">${actionText("Revoke", name)}</button>
</form>`;
}

/** Disable asks first (callers break); enable asks too, so a key disabled for a leak is not enabled by a slip. */
function disableForm(key: ApiKeyInfo): SafeHtml {
  const name = keyName(key);
  return html`<form method="post" action="/keys/disable" class="inline" data-confirm="Disable the key ${name} (${key.displayPrefix}…)? Calls with it are refused within 2 seconds, until you enable it again." data-confirm-title="Disable ${name}?" data-confirm-button="Disable key">
${hiddenField("keyId", key.keyId)}
<button type="submit" class="secondary small">${actionText("Disable", name)}</button>
</form>`;
}

function enableForm(key: ApiKeyInfo): SafeHtml {
  const name = keyName(key);
  return html`<form method="post" action="/keys/enable" class="inline" data-confirm="Enable the key ${name} (${key.displayPrefix}…)? Calls with it are accepted again within 2 seconds." data-confirm-title="Enable ${name}?" data-confirm-button="Enable key" data-confirm-kind="safe">
${hiddenField("keyId", key.keyId)}
<button type="submit" class="small">${actionText("Enable", name)}</button>
</form>`;
}

function keyActions(key: ApiKeyInfo): SafeHtml | "" {
  if (key.status === "active")
    return html`<div class="row-actions"><a class="button secondary small" href="/keys/rotate?keyId=${encodeURIComponent(key.keyId)}">${actionText("Rotate", keyName(key))}</a>${disableForm(key)}${revokeForm(key)}</div>`;
  if (key.status === "disabled")
    return html`<div class="row-actions">${enableForm(key)}${revokeForm(key)}</div>`;
  return "";
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
${readOnly ? "" : html`<td class="row-end">${keyActions(key)}</td>`}
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
  usage?: OrganizationKeyUsage | undefined;
}): SafeHtml {
  return html`<div class="title-row"><h1>API keys</h1>
<form method="get" action="/keys/new"><button type="submit">Create key</button></form></div>
<p class="lead">Backends call the API with <code>x-api-key</code>. A key is shown once when it is made. A revoked key is refused within 2 seconds; so is a disabled one, until you enable it again.</p>
${apiKeysBody(input)}
${input.usage ? keyUsageSection(input.keys, input.usage) : ""}`;
}

const ROUTE_KINDS = [
  { kind: "quote", label: "Quotes" },
  { kind: "order", label: "Orders" },
  { kind: "status", label: "Status reads" },
  { kind: "other", label: "Other" },
] as const;
const SPARK_BAR_WIDTH = 6;
const SPARK_HEIGHT = 28;

type DayCalls = OrganizationKeyUsage["keys"][number]["days"][number];
const callsOf = (day: Omit<DayCalls, "day">) => day.quote + day.order + day.status + day.other;
const dayTitle = (day: DayCalls) =>
  `${day.day}: ${callsOf(day)} calls (${ROUTE_KINDS.map(({ kind, label }) => `${day[kind]} ${label.toLowerCase()}`).join(", ")})`;

/** One key's last days as stacked bars, one per day, by route kind: inline SVG, no script, no style. */
function keySparkline(name: string, days: readonly DayCalls[]): SafeHtml {
  const most = Math.max(1, ...days.map(callsOf));
  const bars = days.map((day, i) => {
    let top = SPARK_HEIGHT;
    const parts = ROUTE_KINDS.map(({ kind }) => {
      const height = (day[kind] / most) * SPARK_HEIGHT;
      top -= height;
      return height > 0
        ? html`<rect class="bar-${kind}" x="${i * SPARK_BAR_WIDTH + 1}" y="${top.toFixed(1)}" width="${SPARK_BAR_WIDTH - 2}" height="${height.toFixed(1)}"></rect>`
        : "";
    });
    return html`<g><title>${dayTitle(day)}</title><rect class="bar-slot" x="${i * SPARK_BAR_WIDTH}" y="0" width="${SPARK_BAR_WIDTH}" height="${SPARK_HEIGHT}"></rect>${parts}</g>`;
  });
  const total = days.reduce((sum, day) => sum + callsOf(day), 0);
  return html`<svg class="spark" viewBox="0 0 ${days.length * SPARK_BAR_WIDTH} ${SPARK_HEIGHT}" width="${days.length * SPARK_BAR_WIDTH}" height="${SPARK_HEIGHT}" role="img" aria-label="${name}: ${total} calls in ${days.length} days">
<line class="baseline" x1="0" y1="${SPARK_HEIGHT - 0.5}" x2="${days.length * SPARK_BAR_WIDTH}" y2="${SPARK_HEIGHT - 0.5}"></line>
${bars}
</svg>`;
}

/**
 * Calls per key over the last days by route kind: a row per key (the live ones, and any other with
 * calls) with its bars and totals, and each key's days with calls in a table behind a disclosure.
 */
function keyUsageSection(keys: readonly ApiKeyInfo[], usage: OrganizationKeyUsage): SafeHtml {
  const byKey = new Map(usage.keys.map((key) => [key.keyId, key]));
  const shown = keys.filter(
    (key) => key.status === "active" || key.status === "disabled" || byKey.has(key.keyId),
  );
  const dayCount = usage.days.length;
  const emptyDays: DayCalls[] = usage.days.map((day) => ({ day, quote: 0, order: 0, status: 0, other: 0 }));
  const rows = shown.map((key) => {
    const name = keyName(key);
    const calls = byKey.get(key.keyId);
    const totals = calls?.totals ?? { quote: 0, order: 0, status: 0, other: 0 };
    return html`<tr>
<th scope="row">${name}</th>
<td class="spark-cell">${keySparkline(name, calls?.days ?? emptyDays)}</td>
${ROUTE_KINDS.map(({ kind }) => html`<td class="num">${totals[kind]}</td>`)}
<td class="num"><strong>${callsOf(totals)}</strong></td>
</tr>`;
  });
  const details = shown.flatMap((key) => {
    const calls = byKey.get(key.keyId);
    if (!calls) return [];
    const name = keyName(key);
    const busy = [...calls.days].reverse().filter((day) => callsOf(day) > 0);
    return [
      html`<details class="key-days">
<summary>Calls per day: ${name}</summary>
<div class="table-wrap"><table>
<caption class="visually-hidden">Calls per day with ${name}, newest first</caption>
<thead><tr><th scope="col">Day (UTC)</th>${ROUTE_KINDS.map(({ label }) => html`<th scope="col" class="num">${label}</th>`)}<th scope="col" class="num">Total</th></tr></thead>
<tbody>${busy.map((day) => html`<tr><th scope="row">${day.day}</th>${ROUTE_KINDS.map(({ kind }) => html`<td class="num">${day[kind]}</td>`)}<td class="num">${callsOf(day)}</td></tr>`)}</tbody>
</table></div>
</details>`,
    ];
  });
  return html`<section class="key-usage" aria-labelledby="key-usage-title">
<h2 id="key-usage-title">Calls per key, last ${dayCount} days</h2>
<p class="muted">Every call the gateway accepted the key for, answered or refused afterwards, by UTC day (${usage.from} to ${usage.to}, today so far). Figures reach this page within a minute.</p>
${
  shown.length === 0
    ? html`<p class="panel empty">No keys to show.</p>`
    : html`<div class="table-wrap">
<table class="key-usage">
<caption class="visually-hidden">Calls per key over the last ${dayCount} days, by route kind</caption>
<thead><tr><th scope="col">Key</th><th scope="col">Per day</th>${ROUTE_KINDS.map(({ label }) => html`<th scope="col" class="num">${label}</th>`)}<th scope="col" class="num">Total</th></tr></thead>
<tbody>${rows}</tbody>
</table>
</div>
<p class="legend-row">${ROUTE_KINDS.map(({ kind, label }) => html`<span class="legend ${kind}"></span>${label} `)}<span class="muted">· each bar is one day, scaled to the key's busiest day</span></p>
${details}`
}
</section>`;
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

/** Without script, Disable and Enable post to this page first; its button posts again, confirmed. */
export function keySwitchConfirmBody(key: ApiKeyInfo, disable: boolean): SafeHtml {
  const name = keyName(key);
  return html`<p class="back"><a href="/keys">← API keys</a></p>
<h1>${disable ? "Disable" : "Enable"} ${name}?</h1>
<p>${disable ? html`Calls with the key <code>${key.displayPrefix}…</code> are refused within 2 seconds, until you enable it again.` : html`Calls with the key <code>${key.displayPrefix}…</code> are accepted again within 2 seconds.`}</p>
<form method="post" action="/keys/${disable ? "disable" : "enable"}" class="actions">
${hiddenField("keyId", key.keyId)}${hiddenField("confirmed", "1")}
<button type="submit"${disable ? html` class="danger"` : ""}>${disable ? "Disable key" : "Enable key"}</button><a class="button secondary" href="/keys">Cancel</a>
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
