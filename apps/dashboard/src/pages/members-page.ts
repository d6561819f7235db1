import type { MemberInfo } from "@hub/admin";
import type { Viewer } from "../auth/viewer.js";
import { html, type SafeHtml } from "../html.js";
import { copyField, formField, hiddenField, shortDate } from "./form-field.js";

export interface MemberInviteMessage {
  kind: "member-invite";
  email: string;
  link: string;
  expiresAt: string;
}

function roleBadge(role: MemberInfo["role"]): SafeHtml {
  return html`<span class="badge ${role === "owner" ? "owner" : "member"}">${role}</span>`;
}

function memberActions(member: MemberInfo): SafeHtml {
  const next = member.role === "owner" ? "member" : "owner";
  return html`<div class="row-actions">
<form method="post" action="/members/role" class="inline">
${hiddenField("accountId", member.accountId)}${hiddenField("role", next)}
<button type="submit" class="secondary small" aria-label="Make ${member.email} ${next === "owner" ? "an owner" : "a member"}">Make ${next}</button>
</form>
<form method="post" action="/members/remove" class="inline" data-confirm="${member.email} is signed out at once and their password no longer signs in. To let them back, invite them again." data-confirm-title="Remove ${member.email}?" data-confirm-button="Remove member">
${hiddenField("accountId", member.accountId)}
<button type="submit" class="danger small">Remove<span class="visually-hidden"> ${member.email}</span></button>
</form>
</div>`;
}

export function membersBody(input: {
  viewer: Viewer;
  members: MemberInfo[];
  requireTwoFactor: boolean;
  inviting?: boolean;
  invited?: MemberInviteMessage | undefined;
  email?: string;
  error?: string;
  notice?: string;
}): SafeHtml {
  const owner = input.viewer.orgRole === "owner";
  const rows = input.members.map(
    (member) => html`<tr>
<td>${member.email}${member.accountId === input.viewer.accountId ? html` <span class="muted">(you)</span>` : ""}${member.invited ? html` <span class="badge pending">invited</span>` : ""}</td>
<td>${roleBadge(member.role)}</td>
<td>${shortDate(member.joinedAt)}</td>
<td>${member.lastSignInAt ? shortDate(member.lastSignInAt) : "never"}</td>
<td>${member.twoFactor ? html`<span class="badge active">on</span>` : html`<span class="badge off">off</span>`}</td>
${owner ? html`<td class="row-end">${memberActions(member)}</td>` : ""}
</tr>`,
  );
  const inviteForm = html`<form method="post" action="/members/invites" class="panel stack inline-form">
<h2>Invite a member</h2>
${formField({ name: "email", label: "Email", type: "email", value: input.email, required: true, autocomplete: "off", error: input.error, hint: "No email is sent: you pass the one-time link on yourself." })}
<div class="actions"><button type="submit">Send invitation</button><a class="button secondary" href="/members">Cancel</a></div>
</form>`;
  return html`<div class="title-row"><h1>Members</h1>
${owner && !input.inviting && !input.invited ? html`<form method="get" action="/members" class="inline">${hiddenField("invite", "1")}<button type="submit">Invite member</button></form>` : ""}
</div>
<p class="lead">${
    owner
      ? "You are an owner: you invite and remove members, change roles and can require two-factor authentication."
      : "Owners invite and remove members, change roles and decide whether two-factor authentication is required; members see this list and do everything else (API keys, allowed origins, usage)."
  }</p>
${input.notice ? html`<p class="notice" role="status">${input.notice}</p>` : ""}
${input.error && !input.inviting ? html`<p class="error-box" role="alert">${input.error}</p>` : ""}
${
  input.invited
    ? html`<section class="panel success" aria-labelledby="invite-title">
<h2 id="invite-title">Invitation for ${input.invited.email}</h2>
${copyField({ id: "invite-link", label: "Invitation link", value: input.invited.link, wide: true })}
<p class="warning" role="note">Pass this link on to ${input.invited.email}. It works once, until ${shortDate(input.invited.expiresAt)}, and is not shown again.</p>
</section>`
    : ""
}
${owner && input.inviting ? inviteForm : ""}
<div class="table-wrap">
<table class="members">
<caption class="visually-hidden">Members</caption>
<thead><tr><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Joined</th><th scope="col">Last sign-in</th><th scope="col">Two-factor</th>${owner ? html`<th scope="col"><span class="visually-hidden">Actions</span></th>` : ""}</tr></thead>
<tbody>${rows}</tbody>
</table>
</div>
<section class="panel stack" aria-labelledby="require-title">
<h2 id="require-title">Two-factor authentication</h2>
<p>${
    input.requireTwoFactor
      ? "Required: a member without it is sent to set it up before any other page."
      : "Not required: each member decides on their Account page."
  }</p>
${
  owner
    ? html`<form method="post" action="/members/require-two-factor" class="actions">
${hiddenField("required", input.requireTwoFactor ? "0" : "1")}
<button type="submit" class="${input.requireTwoFactor ? "secondary" : ""}">${input.requireTwoFactor ? "Stop requiring two-factor authentication" : "Require two-factor authentication"}</button>
</form>`
    : ""
}
</section>`;
}

export function removeConfirmBody(member: MemberInfo): SafeHtml {
  return html`<p class="back"><a href="/members">← Members</a></p>
<h1>Remove ${member.email}?</h1>
<p>${member.email} is signed out at once and their password no longer signs in. To let them back, invite them again.</p>
<form method="post" action="/members/remove" class="actions">
${hiddenField("accountId", member.accountId)}${hiddenField("confirmed", "1")}
<button type="submit" class="danger">Remove member</button><a class="button secondary" href="/members">Cancel</a>
</form>`;
}
