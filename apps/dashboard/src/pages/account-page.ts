import { renderSVG } from "uqr";
import type { SessionView } from "../auth/account-sessions.js";
import type { Viewer } from "../auth/viewer.js";
import { passwordRule } from "../auth/password-rule.js";
import { html, SafeHtml } from "../html.js";
import { copyField, formField, hiddenField, shortDate } from "./form-field.js";

export interface TwoFactorState {
  /** Set-up started: the secret and its otpauth:// URI. */
  setup?: { secret: string; uri: string } | undefined;
  /** Shown once, right after two-factor was turned on. */
  recoveryCodes?: string[] | undefined;
  unusedRecoveryCodes?: number;
  error?: string | undefined;
  notice?: string | undefined;
}

/** The otpauth:// URI as a QR code: inline SVG made here (no request leaves the dashboard). */
function qrCode(uri: string): SafeHtml {
  const svg = renderSVG(uri, { border: 2, pixelSize: 6 });
  return new SafeHtml(
    svg.replace("<svg ", '<svg role="img" aria-label="QR image of the authenticator secret" class="qr" '),
  );
}

function twoFactorPanel(viewer: Viewer, state: TwoFactorState): SafeHtml {
  const codeField = formField({
    name: "code",
    label: "Code",
    required: true,
    autocomplete: "one-time-code",
    maxlength: 20,
    error: state.error,
    hint: viewer.twoFactor
      ? "The 6 digits your app shows now, or a recovery code."
      : "The 6 digits your app shows now.",
  });
  let body: SafeHtml;
  if (state.recoveryCodes)
    body = html`<div class="success-box" role="status"><strong>Two-factor authentication is on.</strong></div>
<p>Keep these recovery codes somewhere safe, away from your phone. Each signs in once when you have no phone; they are not shown again.</p>
<ul class="recovery-codes" aria-label="Recovery codes">${state.recoveryCodes.map((code) => html`<li><code>${code}</code></li>`)}</ul>`;
  else if (viewer.twoFactor)
    body = html`<p><span class="badge active">on</span> Signing in asks for a code from your authenticator app. ${state.unusedRecoveryCodes ?? 0} of 10 recovery codes unused.</p>
${
  viewer.orgRequiresTwoFactor
    ? html`<p class="muted">Your organization requires two-factor authentication, so it stays on.</p>`
    : html`<form method="post" action="/account/two-factor/off" class="stack inline-form">
${codeField}
<div class="actions"><button type="submit" class="secondary">Turn off two-factor authentication</button></div>
</form>`
}`;
  else if (state.setup)
    body = html`<ol class="steps">
<li>Scan the QR code with your authenticator app, or enter the secret by hand.</li>
<li>Type the code the app shows and turn two-factor on.</li>
</ol>
<div class="two-factor-setup">
${qrCode(state.setup.uri)}
<div class="stack">
${copyField({ id: "totp-secret", label: "Authenticator secret", value: state.setup.secret, wide: true })}
<form method="post" action="/account/two-factor/on" class="stack">
${codeField}
<div class="actions"><button type="submit">Turn on two-factor authentication</button></div>
</form>
</div>
</div>`;
  else
    body = html`<p><span class="badge off">off</span> Add a second step to signing in: a 6-digit code from an authenticator app (RFC 6238 TOTP).</p>
<form method="post" action="/account/two-factor/setup" class="actions"><button type="submit">Set up two-factor authentication</button></form>`;
  return html`<section class="panel stack" aria-labelledby="two-factor-title">
<h2 id="two-factor-title">Two-factor authentication</h2>
${state.notice ? html`<p class="notice" role="status">${state.notice}</p>` : ""}
${body}
</section>`;
}

/** A user agent as a person reads it: the browser and the system when they can be told, else the text cut short. */
function describeAgent(agent: string | null): string {
  if (!agent) return "unknown";
  const browser = /(Edg|Firefox|Chrome|Chromium|Safari|curl|HeadlessChrome)\/[\d.]+/.exec(agent)?.[0];
  const system = /(Windows NT [\d.]+|Mac OS X [\d_]+|Android [\d.]+|iPhone OS [\d_]+|Linux|CrOS)/.exec(
    agent,
  )?.[0];
  if (browser) return [browser.replace(/\/([\d]+)[\d.]*/, " $1"), system].filter(Boolean).join(" on ");
  return agent.length > 60 ? `${agent.slice(0, 60)}…` : agent;
}

function sessionsPanel(sessions: readonly SessionView[], notice: string | undefined): SafeHtml {
  const others = sessions.filter((session) => !session.current).length;
  const rows = sessions.map((session) => {
    const started = shortDate(session.createdAt.toISOString());
    const address = session.address ?? "unknown address";
    return html`<tr>
<td>${started}</td>
<td>${shortDate(session.lastSeenAt.toISOString())}</td>
<td><code>${address}</code></td>
<td title="${session.userAgent ?? ""}">${describeAgent(session.userAgent)}</td>
<td class="row-end">${
      session.current
        ? html`<span class="badge active">this browser</span>`
        : html`<form method="post" action="/account/sessions/end" class="inline">
${hiddenField("session", session.handle)}
<button type="submit" class="secondary small">End session<span class="visually-hidden"> started ${started} from ${address}</span></button>
</form>`
    }</td>
</tr>`;
  });
  return html`<section class="panel stack" aria-labelledby="sessions-title">
<h2 id="sessions-title">Sessions</h2>
<p class="muted">Where your account is signed in now. End any session you do not recognise, then change your password.</p>
${notice ? html`<p class="notice" role="status">${notice}</p>` : ""}
<div class="table-wrap">
<table class="keys">
<caption class="visually-hidden">Your sessions</caption>
<thead><tr><th scope="col">Signed in</th><th scope="col">Last seen</th><th scope="col">Address</th><th scope="col">Browser</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
</div>
${
  others > 0
    ? html`<form method="post" action="/account/sessions/end-others" class="actions"><button type="submit" class="danger">End all other sessions</button></form>`
    : ""
}
</section>`;
}

export function accountBody(input: {
  viewer: Viewer;
  sessions?: readonly SessionView[];
  notice?: string | undefined;
  errors?: { current?: string; next?: string; confirm?: string; form?: string };
  twoFactor?: TwoFactorState;
}): SafeHtml {
  return html`<h1>Account</h1>
<p class="lead">Signed in as <strong>${input.viewer.email}</strong> (${input.viewer.role === "operator" ? "operator" : `organization ${input.viewer.orgRole ?? "member"}`}).</p>
${twoFactorPanel(input.viewer, input.twoFactor ?? {})}
<form method="post" action="/account/password" class="panel stack">
<h2>Change password</h2>
<p class="muted">Changing the password signs you out everywhere, this browser included.</p>
${input.errors?.form ? html`<p class="error" role="alert">${input.errors.form}</p>` : ""}
<input type="text" name="username" value="${input.viewer.email}" autocomplete="username" hidden>
${formField({ name: "current", label: "Current password", type: "password", required: true, autocomplete: "current-password", error: input.errors?.current })}
${formField({ name: "next", label: "New password", type: "password", required: true, autocomplete: "new-password", hint: `At least ${passwordRule.minLength} characters.`, error: input.errors?.next })}
${formField({ name: "confirm", label: "Confirm new password", type: "password", required: true, autocomplete: "new-password", error: input.errors?.confirm })}
<div class="actions"><button type="submit">Change password</button></div>
</form>
${input.sessions ? sessionsPanel(input.sessions, input.notice) : ""}`;
}
