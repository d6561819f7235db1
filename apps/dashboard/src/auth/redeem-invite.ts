import { hashDashboardToken } from "@hub/admin";
import type { DashboardAuthState } from "./dashboard-auth-state.js";
import { newSession, sessionOrigin } from "./open-session.js";
import { passwordProblem } from "./password-rule.js";

export type InviteState =
  | { usable: true; email: string; hasPassword: boolean }
  | { usable: false; message: string };

export interface RedeemInviteInput {
  token: string;
  password: string;
  confirm: string;
  ip?: string;
  userAgent?: string;
}

export type RedeemResult =
  | { ok: true; sessionToken: string }
  | { ok: false; field: "password" | "confirm"; message: string }
  | { ok: false; field: null; message: string };

const INVALID_LINK = "This sign-in link is not valid. Ask an operator for a new one.";

async function findUsableInvite(state: DashboardAuthState, token: string) {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return { invite: undefined, message: INVALID_LINK };
  const invite = await state.store.findInvite(hashDashboardToken(token));
  if (!invite) return { invite: undefined, message: INVALID_LINK };
  if (invite.usedAt)
    return {
      invite: undefined,
      message: "This sign-in link was already used. Ask an operator for a new one.",
    };
  if (invite.expiresAt.getTime() <= state.clock.now())
    return {
      invite: undefined,
      message: "This sign-in link has expired (links are valid for 24 hours). Ask an operator for a new one.",
    };
  return { invite, message: "" };
}

export async function inviteState(state: DashboardAuthState, token: string): Promise<InviteState> {
  const { invite, message } = await findUsableInvite(state, token);
  if (!invite) return { usable: false, message };
  return { usable: true, email: invite.account.email, hasPassword: invite.account.passwordHash !== null };
}

export async function redeemInvite(
  state: DashboardAuthState,
  { token, password, confirm, ip, userAgent }: RedeemInviteInput,
): Promise<RedeemResult> {
  const { store, clock, hasher } = state;
  const { invite, message } = await findUsableInvite(state, token);
  if (!invite) return { ok: false, field: null, message };
  const settingPassword = invite.account.passwordHash === null || password !== "" || confirm !== "";
  if (settingPassword) {
    const problem = passwordProblem(password, confirm);
    if (problem)
      return {
        ok: false,
        field: problem.field === "next" ? "password" : "confirm",
        message: problem.message,
      };
  }
  const { sessionToken, session } = newSession(state);
  const outcome = await store.redeemInvite({
    tokenHash: hashDashboardToken(token),
    at: new Date(clock.now()),
    passwordHash: settingPassword ? await hasher.hash(password) : null,
    session: { ...session, ...sessionOrigin(ip, userAgent) },
  });
  if (!outcome.redeemed)
    return {
      ok: false,
      field: null,
      message: (await findUsableInvite(state, token)).message || INVALID_LINK,
    };
  await store.recordSignIn(outcome.account.accountId, session.createdAt);
  if (invite.account.passwordHash === null)
    await state.recordFor(outcome.account)({
      action: outcome.account.role === "operator" ? "operator.join" : "member.join",
      orgId: outcome.account.orgId,
      target: outcome.account.accountId,
      detail: { email: outcome.account.email },
    });
  return { ok: true, sessionToken };
}
