import {
  endOtherSession,
  endOtherSessions,
  type SessionView,
  sessionsOf,
  signOut,
  viewerOfSession,
} from "./account-sessions.js";
import { type ChangePasswordInput, type ChangePasswordResult, changePassword } from "./change-password.js";
import { createDashboardAuthState, type DashboardAuthDeps } from "./dashboard-auth-state.js";
import {
  type InviteState,
  type RedeemInviteInput,
  type RedeemResult,
  inviteState,
  redeemInvite,
} from "./redeem-invite.js";
import { type SignInInput, type SignInResult, signIn } from "./sign-in.js";
import {
  disableTwoFactor,
  enableTwoFactor,
  pendingTwoFactor,
  startTwoFactor,
  type TwoFactorSetup,
} from "./two-factor.js";
import { type VerifyCodeInput, type VerifyCodeResult, verifyCode } from "./verify-code.js";
import type { Viewer } from "./viewer.js";

export interface DashboardAuth {
  /** `ip` is the client's address (after the trusted proxies); it and `userAgent` are kept on the session. */
  signIn(input: SignInInput): Promise<SignInResult>;
  /** The second step: a TOTP code or an unused recovery code for a pending sign-in; opens the session. */
  verifyCode(input: VerifyCodeInput): Promise<VerifyCodeResult>;
  /** Starts (or restarts) two-factor set-up: a new secret, kept until a code proves it. */
  startTwoFactor(viewer: Viewer): Promise<TwoFactorSetup>;
  /** The secret being set up, while two-factor is off. */
  pendingTwoFactor(viewer: Viewer): Promise<TwoFactorSetup | undefined>;
  /** Turns two-factor on once a code of the secret matches; the ten recovery codes, shown once. */
  enableTwoFactor(
    viewer: Viewer,
    code: string,
  ): Promise<{ ok: true; recoveryCodes: string[] } | { ok: false; message: string }>;
  /** Turns two-factor off with a current code (or recovery code); refused while the organization requires it. */
  disableTwoFactor(viewer: Viewer, code: string): Promise<{ ok: true } | { ok: false; message: string }>;
  unusedRecoveryCodes(viewer: Viewer): Promise<number>;
  inviteState(token: string): Promise<InviteState>;
  /** Uses the invite once: sets the password (required when the account has none) and opens a session. */
  redeemInvite(input: RedeemInviteInput): Promise<RedeemResult>;
  /** The session's viewer, its idle time renewed; undefined when unknown or expired. */
  viewerOf(sessionToken: string): Promise<Viewer | undefined>;
  signOut(sessionToken: string): Promise<void>;
  /** The viewer's live sessions, newest first; `handle` names one for endOtherSession. */
  sessionsOf(viewer: Viewer): Promise<SessionView[]>;
  /** Ends one other session of the viewer's own account; false when there is none by that handle. */
  endOtherSession(viewer: Viewer, handle: string): Promise<boolean>;
  /** Ends every session of the viewer's account but this one; how many ended. */
  endOtherSessions(viewer: Viewer): Promise<number>;
  /** Ends every session of the account. Attempts are limited like sign-ins (scope "password-change"). */
  changePassword(input: ChangePasswordInput): Promise<ChangePasswordResult>;
}

/** Sign-in (password, then a code when two-factor is on), invites, sessions and the account's own secrets. */
export function createDashboardAuth(deps: DashboardAuthDeps): DashboardAuth {
  const state = createDashboardAuthState(deps);
  return {
    signIn: (input) => signIn(state, input),
    verifyCode: (input) => verifyCode(state, input),
    startTwoFactor: (viewer) => startTwoFactor(state, viewer),
    pendingTwoFactor: (viewer) => pendingTwoFactor(state, viewer),
    enableTwoFactor: (viewer, code) => enableTwoFactor(state, viewer, code),
    disableTwoFactor: (viewer, code) => disableTwoFactor(state, viewer, code),
    unusedRecoveryCodes: async (viewer) => state.store.unusedRecoveryCodes(viewer.accountId),
    inviteState: (token) => inviteState(state, token),
    redeemInvite: (input) => redeemInvite(state, input),
    viewerOf: (sessionToken) => viewerOfSession(state, sessionToken),
    signOut: (sessionToken) => signOut(state, sessionToken),
    changePassword: (input) => changePassword(state, input),
    sessionsOf: (viewer) => sessionsOf(state, viewer),
    endOtherSession: (viewer, handle) => endOtherSession(state, viewer, handle),
    endOtherSessions: (viewer) => endOtherSessions(state, viewer),
  };
}
