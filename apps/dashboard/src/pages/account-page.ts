import type { Viewer } from "../auth/dashboard-auth.js";
import { passwordRule } from "../auth/dashboard-auth.js";
import { html, type SafeHtml } from "../html.js";
import { formField } from "./form-field.js";

export function accountBody(input: {
  viewer: Viewer;
  errors?: { current?: string; next?: string; confirm?: string };
}): SafeHtml {
  return html`<h1>Account</h1>
<p class="lead">Signed in as <strong>${input.viewer.email}</strong> (${input.viewer.role === "operator" ? "operator" : "organization member"}).</p>
<form method="post" action="/account/password" class="panel stack">
<h2>Change password</h2>
<p class="muted">Changing the password signs you out everywhere, this browser included.</p>
<input type="text" name="username" value="${input.viewer.email}" autocomplete="username" hidden>
${formField({ name: "current", label: "Current password", type: "password", required: true, autocomplete: "current-password", error: input.errors?.current })}
${formField({ name: "next", label: "New password", type: "password", required: true, autocomplete: "new-password", hint: `At least ${passwordRule.minLength} characters.`, error: input.errors?.next })}
${formField({ name: "confirm", label: "Confirm new password", type: "password", required: true, autocomplete: "new-password", error: input.errors?.confirm })}
<div class="actions"><button type="submit">Change password</button></div>
</form>`;
}
