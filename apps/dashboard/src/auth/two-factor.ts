import { hashDashboardToken } from "@hub/admin";
import type { DashboardAccountRecord } from "@hub/store";
import { acceptCode } from "./accept-code.js";
import type { DashboardAuthState } from "./dashboard-auth-state.js";
import { matchTotp, newRecoveryCodes, newTotpSecret, normaliseRecoveryCode, otpauthUri } from "./totp.js";
import type { Viewer } from "./viewer.js";

/** A secret being set up, and the URI an authenticator app reads it from. */
export interface TwoFactorSetup {
  secret: string;
  uri: string;
}

export async function startTwoFactor(state: DashboardAuthState, who: Viewer): Promise<TwoFactorSetup> {
  const account = await state.store.findAccountById(who.accountId);
  if (!account) throw new Error("the account is gone");
  if (account.totpEnabledAt) throw new Error("two-factor is already on");
  const secret = newTotpSecret();
  await state.store.setTotpSecret(account.accountId, secret);
  return { secret, uri: otpauthUri({ secret, account: account.email, issuer: "Intent Hub" }) };
}

export async function pendingTwoFactor(
  state: DashboardAuthState,
  who: Viewer,
): Promise<TwoFactorSetup | undefined> {
  const account = await state.store.findAccountById(who.accountId);
  return account ? setupOf(account) : undefined;
}

function setupOf(account: DashboardAccountRecord): TwoFactorSetup | undefined {
  return account.totpSecret && !account.totpEnabledAt
    ? {
        secret: account.totpSecret,
        uri: otpauthUri({ secret: account.totpSecret, account: account.email, issuer: "Intent Hub" }),
      }
    : undefined;
}

export async function enableTwoFactor(
  state: DashboardAuthState,
  who: Viewer,
  code: string,
): Promise<{ ok: true; recoveryCodes: string[] } | { ok: false; message: string }> {
  const { store, clock } = state;
  const account = await store.findAccountById(who.accountId);
  if (!account?.totpSecret || account.totpEnabledAt)
    return { ok: false, message: "Start the set-up again: press Set up two-factor authentication." };
  const step = matchTotp(account.totpSecret, code.replace(/\s/g, ""), clock.now());
  if (step === undefined)
    return { ok: false, message: "This code does not match. Enter the 6 digits your app shows now." };
  const recoveryCodes = newRecoveryCodes();
  await store.enableTotp(account.accountId, {
    at: new Date(clock.now()),
    step,
    recoveryCodeHashes: recoveryCodes.map((c) => hashDashboardToken(normaliseRecoveryCode(c))),
  });
  await state.recordFor(account)({
    action: "account.two-factor-on",
    orgId: account.orgId,
    target: account.accountId,
    detail: { email: account.email },
  });
  return { ok: true, recoveryCodes };
}

export async function disableTwoFactor(
  state: DashboardAuthState,
  who: Viewer,
  code: string,
): Promise<{ ok: true } | { ok: false; message: string }> {
  const account = await state.store.findAccountById(who.accountId);
  if (!account?.totpEnabledAt) return { ok: true };
  if (account.orgRequiresTwoFactor)
    return { ok: false, message: "Your organization requires two-factor authentication; it stays on." };
  if (!(await acceptCode(state, account, code)))
    return { ok: false, message: "This code is not right, or was already used." };
  await state.store.disableTotp(account.accountId);
  await state.recordFor(account)({
    action: "account.two-factor-off",
    orgId: account.orgId,
    target: account.accountId,
    detail: { email: account.email },
  });
  return { ok: true };
}
