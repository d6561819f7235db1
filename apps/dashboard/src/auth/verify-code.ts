import { hashDashboardToken } from "@hub/admin";
import { acceptCode } from "./accept-code.js";
import type { DashboardAuthState } from "./dashboard-auth-state.js";
import { lockoutMessage } from "./lockout-message.js";
import { openSession } from "./open-session.js";

export interface VerifyCodeInput {
  pendingToken: string;
  code: string;
  ip: string;
  userAgent?: string;
}

export type VerifyCodeResult =
  | { ok: true; sessionToken: string }
  | { ok: false; expired: boolean; locked: boolean; message: string };

export async function verifyCode(
  state: DashboardAuthState,
  { pendingToken, code, ip, userAgent }: VerifyCodeInput,
): Promise<VerifyCodeResult> {
  const { store, attempts, clock } = state;
  const expired = {
    ok: false,
    expired: true,
    locked: false,
    message: "This sign-in took too long. Sign in again with your password.",
  } as const;
  if (!/^[A-Za-z0-9_-]{43}$/.test(pendingToken)) return expired;
  const tokenHash = hashDashboardToken(pendingToken);
  const pending = await store.findPendingSignIn(tokenHash);
  if (!pending || pending.expiresAt.getTime() <= clock.now() || pending.account.disabledAt !== null)
    return expired;
  const { account } = pending;
  // The same limiter as passwords, counted before the code is checked.
  const attempt = await attempts.reserve("code", account.email, ip);
  if (!attempt.allowed) {
    await store.deletePendingSignIn(tokenHash);
    return {
      ok: false,
      expired: true,
      locked: true,
      message: lockoutMessage(attempt.lockedUntilMs, clock.now(), "codes"),
    };
  }
  if (!(await acceptCode(state, account, code)))
    return {
      ok: false,
      expired: false,
      locked: false,
      message: "This code is not right, or was already used. Enter the current code from your app.",
    };
  await attempt.succeeded();
  await store.deletePendingSignIn(tokenHash);
  return { ok: true, sessionToken: await openSession(state, account.accountId, ip, userAgent) };
}
