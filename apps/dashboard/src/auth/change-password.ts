import type { DashboardAuthState } from "./dashboard-auth-state.js";
import { lockoutMessage } from "./lockout-message.js";
import { passwordProblem } from "./password-rule.js";
import type { Viewer } from "./viewer.js";

export interface ChangePasswordInput {
  viewer: Viewer;
  current: string;
  next: string;
  confirm: string;
  ip: string;
}

export type ChangePasswordResult =
  | { ok: true }
  | { ok: false; field: "current" | "next" | "confirm"; message: string }
  | { ok: false; field: null; lockedUntilMs: number; message: string };

export async function changePassword(
  state: DashboardAuthState,
  { viewer: who, current, next, confirm, ip }: ChangePasswordInput,
): Promise<ChangePasswordResult> {
  const { store, attempts, hasher, clock } = state;
  const attempt = await attempts.reserve("password-change", who.accountId, ip);
  if (!attempt.allowed)
    return {
      ok: false,
      field: null,
      lockedUntilMs: attempt.lockedUntilMs,
      message: lockoutMessage(attempt.lockedUntilMs, clock.now(), "password checks"),
    };
  const account = await store.findAccountByEmail(who.email);
  if (!account?.passwordHash || !(await hasher.verify(current, account.passwordHash)))
    return { ok: false, field: "current", message: "This is not your current password." };
  await attempt.succeeded();
  const problem = passwordProblem(next, confirm);
  if (problem) return { ok: false, ...problem };
  await store.changePassword(account.accountId, await hasher.hash(next));
  return { ok: true };
}
