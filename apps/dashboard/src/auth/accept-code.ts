import { hashDashboardToken } from "@hub/admin";
import type { DashboardAccountRecord } from "@hub/store";
import type { DashboardAuthState } from "./dashboard-auth-state.js";
import { matchTotp, normaliseRecoveryCode } from "./totp.js";

/** Whether the code is the account's: a TOTP code of a later step than the last one used, or an unused recovery code. */
export async function acceptCode(
  state: DashboardAuthState,
  account: DashboardAccountRecord,
  code: string,
): Promise<boolean> {
  if (!account.totpSecret || !account.totpEnabledAt) return false;
  const typed = code.replace(/\s/g, "");
  if (/^\d{6}$/.test(typed)) {
    const step = matchTotp(account.totpSecret, typed, state.clock.now());
    return step !== undefined && (await state.store.useTotpStep(account.accountId, step));
  }
  const recovery = normaliseRecoveryCode(code);
  if (!/^[a-z0-9]{12}$/.test(recovery)) return false;
  return state.store.useRecoveryCode(
    account.accountId,
    hashDashboardToken(recovery),
    new Date(state.clock.now()),
  );
}
