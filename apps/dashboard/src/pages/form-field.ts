import { html, type SafeHtml } from "../html.js";

export interface FieldInput {
  name: string;
  label: string;
  type?: "text" | "email" | "password" | "url";
  value?: string | undefined;
  error?: string | undefined;
  hint?: string | undefined;
  required?: boolean;
  autocomplete?: string;
  readonly?: boolean;
  maxlength?: number;
  id?: string;
}

/** A labelled input with its hint and its error beside it (aria-describedby, aria-invalid). */
export function formField(field: FieldInput): SafeHtml {
  const id = field.id ?? `field-${field.name}`;
  const described = [field.hint ? `${id}-hint` : "", field.error ? `${id}-error` : ""]
    .filter(Boolean)
    .join(" ");
  return html`<div class="field${field.error ? " has-error" : ""}">
<label for="${id}">${field.label}</label>
${field.hint ? html`<p class="hint" id="${id}-hint">${field.hint}</p>` : ""}
<input id="${id}" name="${field.name}" type="${field.type ?? "text"}"${field.value !== undefined ? html` value="${field.value}"` : ""}${field.required ? html` required` : ""}${field.readonly ? html` readonly` : ""}${field.autocomplete ? html` autocomplete="${field.autocomplete}"` : ""}${field.maxlength ? html` maxlength="${field.maxlength}"` : ""}${described ? html` aria-describedby="${described}"` : ""}${field.error ? html` aria-invalid="true"` : ""}>
${field.error ? html`<p class="error" id="${id}-error">${field.error}</p>` : ""}
</div>`;
}

/** A value to read and copy: a read-only field with a copy button (the button appears with JS). */
export function copyField(input: { id: string; label: string; value: string; wide?: boolean }): SafeHtml {
  return html`<div class="field copy${input.wide ? " wide" : ""}">
<label for="${input.id}">${input.label}</label>
<div class="with-button"><input id="${input.id}" type="text" value="${input.value}" readonly spellcheck="false">
<button type="button" class="secondary" data-copy="${input.id}" aria-label="Copy ${input.label}" hidden>Copy</button></div>
</div>`;
}

/** A hidden form field. */
export function hiddenField(name: string, value: string): SafeHtml {
  return html`<input type="hidden" name="${name}" value="${value}">`;
}

/** A date as the tables show it: `2025-01-31 14:05 UTC`, or a dash. */
export function shortDate(iso: string | null): string {
  return iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : "—";
}
