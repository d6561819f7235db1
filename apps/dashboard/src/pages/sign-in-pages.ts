import { passwordRule } from "../auth/password-rule.js";
import { html, type SafeHtml } from "../html.js";
import { formField } from "./form-field.js";
import { publicPage } from "./layout.js";

export function signInPage(input: { email?: string; error?: string; notice?: string }): SafeHtml {
  return publicPage(
    "Sign in",
    html`<h1>Sign in</h1>
${input.notice ? html`<p class="notice" role="status">${input.notice}</p>` : ""}
${input.error ? html`<p class="error-box" role="alert" id="sign-in-error">${input.error}</p>` : ""}
<form method="post" action="/sign-in" class="stack">
${formField({ name: "email", label: "Email", type: "email", value: input.email, required: true, autocomplete: "username" })}
${formField({ name: "password", label: "Password", type: "password", required: true, autocomplete: "current-password" })}
<button type="submit">Sign in</button>
</form>
<p class="muted">New here? Use the sign-in link an operator sent you.</p>`,
  );
}

export function invitePage(input: {
  token: string;
  email: string;
  hasPassword: boolean;
  errors?: { password?: string; confirm?: string };
}): SafeHtml {
  const action = `/sign-in/${input.token}`;
  const passwordFields = html`${formField({
    name: "password",
    label: input.hasPassword ? "New password (optional)" : "New password",
    type: "password",
    required: !input.hasPassword,
    autocomplete: "new-password",
    hint: `At least ${passwordRule.minLength} characters.`,
    error: input.errors?.password,
  })}
${formField({ name: "confirm", label: "Confirm password", type: "password", required: !input.hasPassword, autocomplete: "new-password", error: input.errors?.confirm })}`;
  return publicPage(
    input.hasPassword ? "Sign in" : "Set your password",
    html`<h1>${input.hasPassword ? "Welcome back" : "Set your password"}</h1>
<p>Signing in as <strong>${input.email}</strong>. This link works once.</p>
<form method="post" action="${action}" class="stack">
<input type="text" name="username" value="${input.email}" autocomplete="username" hidden>
${passwordFields}
<button type="submit">${input.hasPassword ? "Sign in" : "Set password and sign in"}</button>
</form>`,
  );
}

/** The second step of a sign-in with two-factor on: a code from the app, or a recovery code. */
export function codePage(input: { error?: string }): SafeHtml {
  return publicPage(
    "Two-factor code",
    html`<h1>Enter your code</h1>
<p>Your password is right. Now enter the 6-digit code your authenticator app shows, or one of your recovery codes.</p>
${input.error ? html`<p class="error-box" role="alert" id="code-error">${input.error}</p>` : ""}
<form method="post" action="/sign-in/code" class="stack">
${formField({ name: "code", label: "Code", required: true, autocomplete: "one-time-code", maxlength: 20 })}
<button type="submit">Verify</button>
</form>
<p class="muted"><a href="/sign-in">Start again</a></p>`,
  );
}
